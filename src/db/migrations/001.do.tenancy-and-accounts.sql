-- Accounts, plans and the tenancy mechanism.
-- Every tenant table has company_id, RLS enabled and FORCED, and one policy comparing against
-- the transaction-local setting app.company_id (set only by withTenant()).

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tradie_app') THEN
    CREATE ROLE tradie_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
EXCEPTION WHEN duplicate_object THEN
  NULL; -- another database on this cluster created it at the same moment
END $$;

GRANT USAGE ON SCHEMA public TO tradie_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO tradie_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO tradie_app;

CREATE FUNCTION current_company_id() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.company_id', true), '')::uuid $$;

-- Plans are global reference data, not tenant rows.
CREATE TABLE plans (
  slug text PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL,
  price_monthly_cents integer NOT NULL,
  price_yearly_cents integer NOT NULL,
  api_calls_per_month integer NOT NULL,
  sms_per_month integer NOT NULL,
  emails_per_month integer NOT NULL,
  llm_calls_per_month integer NOT NULL,
  max_users integer NOT NULL,
  features jsonb NOT NULL,
  active boolean NOT NULL DEFAULT true,
  sort_order integer NOT NULL
);

INSERT INTO plans VALUES
  ('free', 'Free', 'Try the service: read access over REST for one user.',
   0, 0, 100, 20, 100, 20, 1,
   '{"restRead": true, "restWrite": false, "mcpAccess": false, "webhookInbound": false}', true, 1),
  ('starter', 'Starter', 'For a sole trader: REST read-only access and more calls.',
   4900, 49000, 1000, 200, 1000, 200, 3,
   '{"restRead": true, "restWrite": false, "mcpAccess": false, "webhookInbound": false}', true, 2),
  ('professional', 'Professional', 'For a growing crew: REST read and write access.',
   14900, 149000, 5000, 1000, 5000, 1000, 10,
   '{"restRead": true, "restWrite": true, "mcpAccess": false, "webhookInbound": false}', true, 3),
  ('business', 'Business', 'For agent-run businesses: REST, MCP and webhooks.',
   29900, 299000, 25000, 5000, 25000, 5000, 50,
   '{"restRead": true, "restWrite": true, "mcpAccess": true, "webhookInbound": true}', true, 4);

CREATE TABLE companies (
  id uuid PRIMARY KEY,
  business_name text NOT NULL,
  contact_name text,
  contact_email text NOT NULL,
  trade_type text,
  phone text,
  abn text,
  referral_code text,
  api_call_limit_override integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  email text NOT NULL,
  name text,
  role text NOT NULL DEFAULT 'owner',
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- One account per address across all companies (RLS does not hide unique violations, by design).
CREATE UNIQUE INDEX users_email_unique ON users (lower(email));
CREATE INDEX users_company ON users (company_id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,  -- hex SHA-256 of the whole key; the key itself is never stored
  prefix text NOT NULL,
  scopes text[] NOT NULL,
  permission text NOT NULL CHECK (permission IN ('read', 'write', 'admin')),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_company ON api_keys (company_id);

CREATE TABLE subscriptions (
  company_id uuid PRIMARY KEY REFERENCES companies(id),
  plan_slug text NOT NULL REFERENCES plans(slug),
  billing_cycle text NOT NULL CHECK (billing_cycle IN ('monthly', 'yearly')),
  status text NOT NULL CHECK (status IN ('active', 'trialing', 'trial_expired', 'past_due', 'canceled')),
  trial_ends_at timestamptz,
  current_period_start timestamptz NOT NULL,
  current_period_end timestamptz NOT NULL,
  provider text NOT NULL,
  provider_customer_id text,
  provider_subscription_id text,
  payment_method_id text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Monthly counters (api_calls, sms, emails, llm_calls), one row per company, period and metric.
CREATE TABLE usage_counters (
  company_id uuid NOT NULL REFERENCES companies(id),
  period text NOT NULL,
  metric text NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (company_id, period, metric)
);

CREATE TABLE checkout_sessions (
  id text PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id),
  kind text NOT NULL CHECK (kind IN ('checkout', 'portal')),
  plan_slug text REFERENCES plans(slug),
  billing_cycle text,
  status text NOT NULL CHECK (status IN ('open', 'complete', 'expired')),
  provider text NOT NULL,
  url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX checkout_sessions_company ON checkout_sessions (company_id);

-- Write-then-start: a domain change and the workflow it needs are committed together; the
-- workflow is started after commit, and the relay retries whatever is still unstarted.
CREATE TABLE workflow_outbox (
  id bigserial PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id),
  workflow_type text NOT NULL,
  workflow_id text NOT NULL,
  input jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX workflow_outbox_pending ON workflow_outbox (created_at) WHERE started_at IS NULL;

ALTER TABLE companies ENABLE ROW LEVEL SECURITY;
ALTER TABLE companies FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON companies
  USING (id = current_company_id()) WITH CHECK (id = current_company_id());

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['users', 'api_keys', 'subscriptions', 'usage_counters', 'checkout_sessions', 'workflow_outbox']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = current_company_id()) WITH CHECK (company_id = current_company_id())', t);
  END LOOP;
END $$;

GRANT SELECT ON plans TO tradie_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON companies, users, api_keys, subscriptions, usage_counters, checkout_sessions, workflow_outbox TO tradie_app;
GRANT USAGE, SELECT ON SEQUENCE workflow_outbox_id_seq TO tradie_app;
