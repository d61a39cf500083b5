-- Operators: one user may belong to several companies, and an API key may act for any of them.
--  * memberships: which users belong to which companies. The row is the company's (RLS on
--    company_id), so a company sees its own members and never another company's.
--  * api_keys.acting_company_id: the company a key acts for after operator.switch_company; NULL is
--    the key's own company. resolve_api_key returns it as the key's company, so every call after a
--    switch runs in that company's transactions, one company at a time as before.
--  * company_switches: every switch, recorded under the company switched to.
-- A key's user is its company's owner (the first owner user): keys carry no user of their own yet.

CREATE TABLE memberships (
  user_id uuid NOT NULL REFERENCES users(id),
  company_id uuid NOT NULL REFERENCES companies(id),
  role text NOT NULL CHECK (role IN ('owner', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, company_id)
);
CREATE INDEX memberships_company ON memberships (company_id);

-- The owner of each company is a member of it: existing users now, new ones as they sign up.
INSERT INTO memberships (user_id, company_id, role)
  SELECT id, company_id, CASE WHEN role = 'owner' THEN 'owner' ELSE 'member' END FROM users;

CREATE FUNCTION users_membership() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
BEGIN
  INSERT INTO memberships (user_id, company_id, role)
    VALUES (NEW.id, NEW.company_id, CASE WHEN NEW.role = 'owner' THEN 'owner' ELSE 'member' END)
    ON CONFLICT DO NOTHING;
  RETURN NEW;
END $$;
CREATE TRIGGER users_membership AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION users_membership();

ALTER TABLE api_keys ADD COLUMN acting_company_id uuid REFERENCES companies(id);

CREATE TABLE company_switches (
  id bigserial PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id),
  from_company_id uuid NOT NULL REFERENCES companies(id),
  key_id uuid NOT NULL REFERENCES api_keys(id),
  user_id uuid NOT NULL REFERENCES users(id),
  switched_at timestamptz NOT NULL
);
CREATE INDEX company_switches_company ON company_switches (company_id, switched_at DESC);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['memberships', 'company_switches']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = current_company_id()) WITH CHECK (company_id = current_company_id())', t);
  END LOOP;
END $$;
GRANT SELECT ON memberships, company_switches TO tradie_app;

-- The user a key speaks for: the first owner of the key's own company.
CREATE FUNCTION api_key_user(p_key uuid) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT u.id FROM api_keys a JOIN users u ON u.company_id = a.company_id AND u.role = 'owner'
    WHERE a.id = p_key ORDER BY u.created_at, u.id LIMIT 1
$$;

-- The companies a key's user belongs to (ids, names and time zones only: no tenant rows), the one
-- the key acts for marked. The portfolio then reads each company in its own transaction.
CREATE FUNCTION operator_companies(p_key uuid)
RETURNS TABLE (company_id uuid, business_name text, time_zone text, role text, own boolean, active boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT c.id, c.business_name, c.time_zone, m.role, c.id = a.company_id,
         c.id = coalesce(a.acting_company_id, a.company_id)
    FROM api_keys a
    JOIN memberships m ON m.user_id = api_key_user(a.id)
    JOIN companies c ON c.id = m.company_id AND c.deleted_at IS NULL
    WHERE a.id = p_key AND a.revoked_at IS NULL
    ORDER BY c.business_name, c.id
$$;

-- Points a key at another company of its user, recording the switch. Returns false, changing
-- nothing, when the user does not belong to that company.
CREATE FUNCTION switch_key_company(p_key uuid, p_company uuid, p_now timestamptz) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  k api_keys%ROWTYPE;
  u uuid;
BEGIN
  SELECT * INTO k FROM api_keys WHERE id = p_key AND revoked_at IS NULL FOR UPDATE;
  IF NOT FOUND THEN RETURN false; END IF;
  u := api_key_user(k.id);
  IF u IS NULL OR NOT EXISTS (
    SELECT 1 FROM memberships m JOIN companies c ON c.id = m.company_id AND c.deleted_at IS NULL
      WHERE m.user_id = u AND m.company_id = p_company) THEN
    RETURN false;
  END IF;
  UPDATE api_keys SET acting_company_id = NULLIF(p_company, k.company_id) WHERE id = k.id;
  INSERT INTO company_switches (company_id, from_company_id, key_id, user_id, switched_at)
    VALUES (p_company, coalesce(k.acting_company_id, k.company_id), k.id, u, p_now);
  RETURN true;
END $$;

-- An admin of p_company grants membership to the user with this email (who signed up another
-- company). Returns the user's id, or NULL when no user has the email.
CREATE FUNCTION grant_membership(p_company uuid, p_email text) RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE u uuid;
BEGIN
  SELECT id INTO u FROM users WHERE lower(email) = lower(p_email);
  IF u IS NULL THEN RETURN NULL; END IF;
  INSERT INTO memberships (user_id, company_id, role) VALUES (u, p_company, 'member') ON CONFLICT DO NOTHING;
  RETURN u;
END $$;

-- resolve_api_key as in migration 029, but the key's company is the one it acts for, while its
-- user still belongs to it (a membership removed sends the key home).
CREATE OR REPLACE FUNCTION resolve_api_key(p_hash text, p_now timestamptz)
RETURNS TABLE (
  key_id uuid, company_id uuid, scopes text[], permission text, revoked_at timestamptz,
  plan_slug text, effective_plan_slug text, subscription_status text, trial_ends_at timestamptz,
  features jsonb, plan_limits jsonb, api_call_limit integer
)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  k api_keys%ROWTYPE;
  s subscriptions%ROWTYPE;
  eff text;
  p plans%ROWTYPE;
  acting uuid;
BEGIN
  SELECT a.* INTO k FROM api_keys a
    JOIN companies c ON c.id = a.company_id AND c.deleted_at IS NULL
    WHERE a.key_hash = p_hash;
  IF NOT FOUND THEN RETURN; END IF;
  acting := k.company_id;
  IF k.acting_company_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM memberships m JOIN companies c ON c.id = m.company_id AND c.deleted_at IS NULL
      WHERE m.company_id = k.acting_company_id AND m.user_id = api_key_user(k.id)) THEN
    acting := k.acting_company_id;
  END IF;
  SELECT * INTO s FROM subscriptions x WHERE x.company_id = acting;
  eff := effective_plan(s.status, s.plan_slug, s.trial_ends_at, s.scheduled_plan_slug, s.current_period_end, p_now);
  SELECT * INTO p FROM plans WHERE slug = eff;

  -- Touch last_used_at at most once a minute so a busy key does not write on every lookup.
  IF k.revoked_at IS NULL THEN
    UPDATE api_keys SET last_used_at = p_now
      WHERE id = k.id AND (last_used_at IS NULL OR last_used_at < p_now - interval '1 minute');
  END IF;

  key_id := k.id; company_id := acting; scopes := k.scopes; permission := k.permission;
  revoked_at := k.revoked_at;
  plan_slug := s.plan_slug; effective_plan_slug := eff; subscription_status := s.status;
  trial_ends_at := s.trial_ends_at; features := p.features;
  plan_limits := jsonb_build_object('sms', p.sms_per_month, 'emails', p.emails_per_month,
                                    'llm_calls', p.llm_calls_per_month, 'users', p.max_users);
  SELECT coalesce(c.api_call_limit_override, p.api_calls_per_month) INTO api_call_limit
    FROM companies c WHERE c.id = acting;
  RETURN NEXT;
END $$;

REVOKE ALL ON FUNCTION api_key_user(uuid), operator_companies(uuid), switch_key_company(uuid, uuid, timestamptz),
  grant_membership(uuid, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION operator_companies(uuid), switch_key_company(uuid, uuid, timestamptz),
  grant_membership(uuid, text) TO tradie_app;
