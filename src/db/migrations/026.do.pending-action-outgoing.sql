-- The messages an approval-gated action would send, exactly as the send takes them (channel, to,
-- message type, subject, body, text, keys): workflows.approve_action's dry run renders them as the
-- provider would get them. `messages` stays the short listing pending_actions shows. Null for an
-- action recorded before this column, or one that sends to the owner's team (team notify).
ALTER TABLE pending_actions ADD COLUMN outgoing jsonb;
