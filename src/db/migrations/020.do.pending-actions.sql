-- Approval-gated actions (workflows.pending_actions, approve_action, reject_action). An automation
-- marked "needs approval" records here what it would do, to whom, and its workflow waits (a
-- Temporal Update carries the decision; nothing polls this table). The workflow writes every
-- change of status, so the row always says what really happened:
--   pending -> approved -> executed | failed      (approve_action)
--   pending -> rejected                           (reject_action; never executed)
--   pending -> expired                            (no decision by expires_at; never executed)
CREATE TABLE pending_actions (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id),
  automation text NOT NULL,            -- catalogue key, e.g. team_notify
  workflow_id text NOT NULL,           -- the Temporal workflow waiting for the decision
  run_id uuid REFERENCES automation_runs(id), -- its automation_runs record, when it has one
  summary text NOT NULL,               -- one line: what it would do
  messages jsonb NOT NULL DEFAULT '[]', -- what would be sent to whom: [{channel, to, name, subject, text}]
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'approved', 'executed', 'failed', 'rejected', 'expired')),
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by uuid,                     -- the API key that approved or rejected it
  note text,                           -- the approval note or the rejection reason
  outcome jsonb,                       -- what executing it did (messages sent, failures)
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- workflows.pending_actions: the pending ones, oldest first, optionally of one automation.
CREATE INDEX pending_actions_company_pending ON pending_actions (company_id, created_at, id) WHERE status = 'pending';
CREATE INDEX pending_actions_company_workflow ON pending_actions (company_id, workflow_id);

SELECT enable_tenant_rls('pending_actions');
