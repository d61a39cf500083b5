-- Leads, the domain-event outbox (delivered by the webhooks capability), communications and
-- per-company message templates and automation settings.

CREATE TABLE leads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  phone text,
  email text,
  service_type text,
  status text NOT NULL DEFAULT 'New' CHECK (status IN ('New', 'Contacted', 'Qualified', 'Quoted', 'Won', 'Lost')),
  priority text NOT NULL DEFAULT 'Normal' CHECK (priority IN ('Low', 'Normal', 'High', 'Urgent')),
  message text,
  address text,
  suburb text,
  source text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Newest first, with id as the tie-breaker, for both offset and keyset (cursor) pages.
CREATE INDEX leads_company_created ON leads (company_id, created_at DESC, id DESC);
CREATE INDEX leads_company_status ON leads (company_id, status, created_at DESC);

-- Domain events, written in the same transaction as the change they describe.
CREATE TABLE event_outbox (
  id bigserial PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id),
  event_type text NOT NULL,          -- canonical REST name, e.g. lead.created
  entity_type text NOT NULL,
  entity_id uuid NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX event_outbox_company ON event_outbox (company_id, id);
CREATE INDEX event_outbox_undelivered ON event_outbox (id) WHERE delivered_at IS NULL;

CREATE TABLE communications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  channel text NOT NULL CHECK (channel IN ('sms', 'email')),
  direction text NOT NULL DEFAULT 'outbound' CHECK (direction IN ('outbound', 'inbound')),
  message_type text NOT NULL,        -- instant_response, quote, eta, reminder, ...
  to_address text NOT NULL,
  from_address text,
  subject text,
  body text NOT NULL,
  lead_id uuid REFERENCES leads(id),
  provider text NOT NULL,            -- which provider handled it: local-outbox, twilio, smtp
  provider_message_id text,
  -- recorded: only in our outbox (no real provider configured); sent: accepted by the provider;
  -- delivered / failed: provider's later report.
  status text NOT NULL CHECK (status IN ('pending', 'recorded', 'sent', 'delivered', 'failed')),
  error text,
  idempotency_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  handed_to_provider_at timestamptz,
  UNIQUE (company_id, idempotency_key)
);
CREATE INDEX communications_company_created ON communications (company_id, created_at DESC);
CREATE INDEX communications_lead ON communications (lead_id);

CREATE TABLE message_templates (
  company_id uuid NOT NULL REFERENCES companies(id),
  key text NOT NULL,                 -- instant_response.sms, instant_response.email
  subject text,
  body text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, key)
);

CREATE TABLE automation_settings (
  company_id uuid NOT NULL REFERENCES companies(id),
  automation text NOT NULL,          -- instant_response, ...
  enabled boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, automation)
);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['leads', 'event_outbox', 'communications', 'message_templates', 'automation_settings']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = current_company_id()) WITH CHECK (company_id = current_company_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON leads, event_outbox, communications, message_templates, automation_settings TO tradie_app;
GRANT USAGE, SELECT ON SEQUENCE event_outbox_id_seq TO tradie_app;
