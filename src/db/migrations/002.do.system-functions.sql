-- The few lookups that must happen before the tenant is known. Each is SECURITY DEFINER (runs as
-- the migration owner, which must be a superuser or have BYPASSRLS), narrow, and the only way the
-- app role reaches across tenants.

-- Authenticates a key by its SHA-256 hash and counts the call against the monthly quota in one
-- round trip. Returns no row for an unknown or revoked key or a deleted company.
-- The effective plan falls back to free when a trial has ended unpaid or the subscription lapsed.
CREATE FUNCTION authenticate_api_key(p_hash text, p_period text, p_now timestamptz, p_count boolean)
RETURNS TABLE (
  key_id uuid, company_id uuid, scopes text[], permission text,
  plan_slug text, effective_plan_slug text, subscription_status text, trial_ends_at timestamptz,
  features jsonb, api_call_limit integer, api_calls_used integer, allowed boolean
)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  k api_keys%ROWTYPE;
  s subscriptions%ROWTYPE;
  eff text;
  p plans%ROWTYPE;
  lim integer;
  used integer;
BEGIN
  SELECT * INTO k FROM api_keys a WHERE a.key_hash = p_hash AND a.revoked_at IS NULL;
  IF NOT FOUND THEN RETURN; END IF;
  PERFORM 1 FROM companies c WHERE c.id = k.company_id AND c.deleted_at IS NULL;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT * INTO s FROM subscriptions x WHERE x.company_id = k.company_id;
  eff := CASE
    WHEN s.status = 'active' THEN s.plan_slug
    WHEN s.status = 'trialing' AND s.trial_ends_at > p_now THEN s.plan_slug
    ELSE 'free' END;
  SELECT * INTO p FROM plans WHERE slug = eff;
  SELECT coalesce(c.api_call_limit_override, p.api_calls_per_month) INTO lim FROM companies c WHERE c.id = k.company_id;

  IF p_count THEN
    -- Atomic: the row is only incremented while under the limit, so concurrent calls never overshoot.
    INSERT INTO usage_counters AS u (company_id, period, metric, count)
      VALUES (k.company_id, p_period, 'api_calls', 1)
      ON CONFLICT ON CONSTRAINT usage_counters_pkey DO UPDATE SET count = u.count + 1 WHERE u.count < lim
      RETURNING u.count INTO used;
    allowed := used IS NOT NULL;
  ELSE
    allowed := true;
  END IF;
  IF used IS NULL THEN
    SELECT u.count INTO used FROM usage_counters u
      WHERE u.company_id = k.company_id AND u.period = p_period AND u.metric = 'api_calls';
    used := coalesce(used, 0);
  END IF;

  -- Touch last_used_at at most once a minute so a busy key does not write on every call.
  UPDATE api_keys SET last_used_at = p_now
    WHERE id = k.id AND (last_used_at IS NULL OR last_used_at < p_now - interval '1 minute');

  key_id := k.id; company_id := k.company_id; scopes := k.scopes; permission := k.permission;
  plan_slug := s.plan_slug; effective_plan_slug := eff; subscription_status := s.status;
  trial_ends_at := s.trial_ends_at; features := p.features; api_call_limit := lim; api_calls_used := used;
  RETURN NEXT;
END $$;

-- Public payment pages carry only a session id; this tells which company it belongs to.
CREATE FUNCTION checkout_session_company(p_id text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM checkout_sessions WHERE id = p_id $$;

-- The outbox relay works across tenants.
CREATE FUNCTION pending_workflow_outbox(p_older_than interval, p_limit integer)
RETURNS SETOF workflow_outbox
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT * FROM workflow_outbox
  WHERE started_at IS NULL AND created_at < now() - p_older_than
  ORDER BY id LIMIT p_limit
$$;

CREATE FUNCTION mark_workflow_outbox(p_id bigint, p_error text) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  UPDATE workflow_outbox
  SET started_at = CASE WHEN p_error IS NULL THEN now() ELSE started_at END,
      attempts = attempts + 1,
      last_error = p_error
  WHERE id = p_id
$$;

REVOKE ALL ON FUNCTION authenticate_api_key(text, text, timestamptz, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION checkout_session_company(text) FROM PUBLIC;
REVOKE ALL ON FUNCTION pending_workflow_outbox(interval, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION mark_workflow_outbox(bigint, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION authenticate_api_key(text, text, timestamptz, boolean) TO tradie_app;
GRANT EXECUTE ON FUNCTION checkout_session_company(text) TO tradie_app;
GRANT EXECUTE ON FUNCTION pending_workflow_outbox(interval, integer) TO tradie_app;
GRANT EXECUTE ON FUNCTION mark_workflow_outbox(bigint, text) TO tradie_app;

-- Onboarding checks an address before asking the payments provider to start a subscription.
-- (The unique index on users stays the guard against a concurrent sign-up.)
CREATE FUNCTION email_registered(p_email text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = lower(p_email)) $$;
REVOKE ALL ON FUNCTION email_registered(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION email_registered(text) TO tradie_app;
