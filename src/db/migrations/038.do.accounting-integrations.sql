-- Accounting integrations (issue 24): a company's connection to an accounting package (Xero first),
-- the links between our records and the provider's, a cursor per entity type for the sync workflow
-- that builds on these, and the provider's webhook events as received.
--
-- Tokens are stored only as AES-256-GCM ciphertext (src/domains/integrations/token-crypto.ts):
-- token_key_id names the key that sealed them, so a rotated key can still read older rows.
CREATE TABLE integration_connections (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  provider text NOT NULL CHECK (provider IN ('xero', 'myob', 'quickbooks_online')),
  tenant_id text NOT NULL,                   -- Xero tenant (organisation) id
  tenant_name text,
  status text NOT NULL CHECK (status IN ('active', 'error', 'disconnected')),
  access_token_sealed text NOT NULL,
  refresh_token_sealed text NOT NULL,
  token_key_id text NOT NULL,
  access_token_expires_at timestamptz NOT NULL,
  scopes text[] NOT NULL DEFAULT '{}',
  refreshed_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  -- What the provider said was left on the last call (X-MinLimit-Remaining, X-DayLimit-Remaining).
  minute_limit_remaining integer,
  day_limit_remaining integer,
  limits_seen_at timestamptz,
  connected_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (company_id, provider, tenant_id)
);
CREATE INDEX integration_connections_company ON integration_connections (company_id, created_at DESC, id DESC);
SELECT enable_tenant_rls('integration_connections');

-- Our record <-> the provider's, per entity type: a push finds the link and updates instead of
-- creating a second record; a pull finds our record by the provider's id.
CREATE TABLE integration_entity_links (
  company_id uuid NOT NULL REFERENCES companies(id),
  connection_id uuid NOT NULL REFERENCES integration_connections(id),
  entity_type text NOT NULL CHECK (entity_type IN ('contact', 'invoice', 'credit_note', 'payment', 'item')),
  our_id uuid NOT NULL,
  provider_id text NOT NULL,
  provider_number text,
  -- How the link was made: created by us, or matched to a record already there (by ABN, email, name).
  linked_by text NOT NULL CHECK (linked_by IN ('created', 'matched_abn', 'matched_email', 'matched_name', 'pulled')),
  synced_at timestamptz NOT NULL,
  PRIMARY KEY (connection_id, entity_type, our_id),
  UNIQUE (connection_id, entity_type, provider_id)
);
SELECT enable_tenant_rls('integration_entity_links');

-- Where a sync of one entity type in one direction got to, so an interrupted sync resumes there.
CREATE TABLE integration_sync_cursors (
  company_id uuid NOT NULL REFERENCES companies(id),
  connection_id uuid NOT NULL REFERENCES integration_connections(id),
  entity_type text NOT NULL CHECK (entity_type IN ('contact', 'invoice', 'credit_note', 'payment', 'item')),
  direction text NOT NULL CHECK (direction IN ('pull', 'push')),
  cursor text,                               -- provider-specific (Xero: an If-Modified-Since time, or a page)
  last_synced_at timestamptz,
  last_result text CHECK (last_result IN ('ok', 'error')),
  last_error text,
  records_done integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (connection_id, entity_type, direction)
);
SELECT enable_tenant_rls('integration_sync_cursors');

-- Webhook events as the provider sent them, one row per event and connection of its tenant. The sync
-- workflow (next) consumes the unprocessed ones; the unique key makes a redelivered event a no-op.
CREATE TABLE integration_webhook_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  connection_id uuid NOT NULL REFERENCES integration_connections(id),
  event_category text NOT NULL,              -- Xero: CONTACT, INVOICE
  event_type text NOT NULL,                  -- Xero: CREATE, UPDATE
  resource_id text NOT NULL,
  event_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  processed_at timestamptz,
  UNIQUE (connection_id, event_category, resource_id, event_type, event_at)
);
CREATE INDEX integration_webhook_events_pending ON integration_webhook_events (connection_id, received_at) WHERE processed_at IS NULL;
SELECT enable_tenant_rls('integration_webhook_events');

-- A webhook names only the provider's tenant: the connections (any company's) holding that tenant.
CREATE FUNCTION integration_connections_for_tenant(p_provider text, p_tenant text)
RETURNS TABLE (company_id uuid, connection_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id, id FROM integration_connections WHERE provider = p_provider AND tenant_id = p_tenant AND status <> 'disconnected' $$;
REVOKE ALL ON FUNCTION integration_connections_for_tenant(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION integration_connections_for_tenant(text, text) TO tradie_app;
