-- Real delivery status for messages, the Spam Act's opt-outs, and the lookups the public Twilio
-- webhooks and the unsubscribe page need (they carry no API key, so no tenant is set yet).

-- Delivery status. 'pending' becomes 'queued' (waiting to be handed over, or handed to a carrier
-- gateway that has not sent it yet); 'recorded' stays our honest local outbox; 'sent', 'delivered',
-- 'failed' and 'undelivered' are what the provider reports; 'received' is an inbound reply.
ALTER TABLE communications DROP CONSTRAINT communications_status_check;
UPDATE communications SET status = 'queued' WHERE status = 'pending';
ALTER TABLE communications ADD CONSTRAINT communications_status_check
  CHECK (status IN ('queued', 'recorded', 'sent', 'delivered', 'failed', 'undelivered', 'received'));

ALTER TABLE communications
  ADD COLUMN text_body text,                -- email: the plain-text part as sent
  ADD COLUMN unsubscribe_token text,        -- marketing email: the credential of its /u/<token> page
  ADD COLUMN provider_status text,          -- the provider's own word, e.g. Twilio's 'undelivered'
  ADD COLUMN status_updated_at timestamptz;
CREATE UNIQUE INDEX communications_unsubscribe_token ON communications (unsubscribe_token) WHERE unsubscribe_token IS NOT NULL;
-- comms.list: newest first with id as tie-breaker, and its filters.
CREATE INDEX communications_company_created_id ON communications (company_id, created_at DESC, id DESC);
CREATE INDEX communications_company_job ON communications (company_id, job_id, created_at DESC, id DESC) WHERE job_id IS NOT NULL;
-- An inbound STOP names only the sender's number: whose latest message went to it.
CREATE INDEX communications_sms_to ON communications (to_address, created_at DESC) WHERE channel = 'sms' AND direction = 'outbound';

-- How far along a status is. Provider callbacks arrive out of order; a status only ever moves to a
-- higher rank, so a late 'sent' never undoes 'delivered'.
CREATE FUNCTION message_status_rank(p_status text) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE p_status WHEN 'queued' THEN 0 WHEN 'sent' THEN 1 WHEN 'recorded' THEN 2 WHEN 'received' THEN 2
                       WHEN 'delivered' THEN 2 WHEN 'undelivered' THEN 2 WHEN 'failed' THEN 2 ELSE 0 END
$$;
GRANT EXECUTE ON FUNCTION message_status_rank(text) TO tradie_app;

-- One row per (company, channel, address) that has opted out of marketing messages. Opting back in
-- (START) keeps the row with opted_back_in_at set: the history of consent is kept.
CREATE TABLE message_opt_outs (
  company_id uuid NOT NULL REFERENCES companies(id),
  channel text NOT NULL CHECK (channel IN ('sms', 'email')),
  address text NOT NULL,                    -- E.164 number or lower-cased email address
  source text NOT NULL CHECK (source IN ('sms_keyword', 'email_unsubscribe')),
  detail text,                              -- the keyword sent, or the message unsubscribed from
  opted_out_at timestamptz NOT NULL,
  opted_back_in_at timestamptz,             -- null: the opt-out is in force
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, channel, address)
);
CREATE INDEX message_opt_outs_company_updated ON message_opt_outs (company_id, updated_at DESC);
SELECT enable_tenant_rls('message_opt_outs');

-- A Twilio status callback's URL names the message: whose is it.
CREATE FUNCTION communication_company(p_id uuid) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM communications WHERE id = p_id $$;
REVOKE ALL ON FUNCTION communication_company(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION communication_company(uuid) TO tradie_app;

-- The unsubscribe page carries only its token.
CREATE FUNCTION unsubscribe_company(p_token text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM communications WHERE unsubscribe_token = p_token $$;
REVOKE ALL ON FUNCTION unsubscribe_company(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION unsubscribe_company(text) TO tradie_app;

-- An inbound SMS names the sender's number and ours: the company whose SMS reached that number
-- last (through the given provider) is the one being answered.
CREATE FUNCTION sms_reply_company(p_provider text, p_number text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT company_id FROM communications
  WHERE channel = 'sms' AND direction = 'outbound' AND to_address = p_number AND provider = p_provider
    AND handed_to_provider_at IS NOT NULL
  ORDER BY created_at DESC LIMIT 1
$$;
REVOKE ALL ON FUNCTION sms_reply_company(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sms_reply_company(text, text) TO tradie_app;
