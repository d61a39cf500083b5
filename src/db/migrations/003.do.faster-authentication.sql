-- authenticate_api_key, second version:
--  * returns the effective plan's limits too, so GET /usage needs no plan lookup;
--  * commits the quota counter asynchronously (synchronous_commit off for this one transaction):
--    a database crash can forget the last fraction of a second of counted calls (a company gets a
--    few calls free), but never counts a call twice, and the call no longer waits for a WAL flush.
DROP FUNCTION authenticate_api_key(text, text, timestamptz, boolean);

CREATE FUNCTION authenticate_api_key(p_hash text, p_period text, p_now timestamptz, p_count boolean)
RETURNS TABLE (
  key_id uuid, company_id uuid, scopes text[], permission text,
  plan_slug text, effective_plan_slug text, subscription_status text, trial_ends_at timestamptz,
  features jsonb, plan_limits jsonb, api_call_limit integer, api_calls_used integer, allowed boolean
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
  SELECT a.* INTO k FROM api_keys a
    JOIN companies c ON c.id = a.company_id AND c.deleted_at IS NULL
    WHERE a.key_hash = p_hash AND a.revoked_at IS NULL;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT * INTO s FROM subscriptions x WHERE x.company_id = k.company_id;
  eff := CASE
    WHEN s.status = 'active' THEN s.plan_slug
    WHEN s.status = 'trialing' AND s.trial_ends_at > p_now THEN s.plan_slug
    ELSE 'free' END;
  SELECT * INTO p FROM plans WHERE slug = eff;
  SELECT coalesce(c.api_call_limit_override, p.api_calls_per_month) INTO lim FROM companies c WHERE c.id = k.company_id;

  IF p_count THEN
    PERFORM set_config('synchronous_commit', 'off', true);
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
  trial_ends_at := s.trial_ends_at; features := p.features;
  plan_limits := jsonb_build_object('sms', p.sms_per_month, 'emails', p.emails_per_month,
                                    'llm_calls', p.llm_calls_per_month, 'users', p.max_users);
  api_call_limit := lim; api_calls_used := used;
  RETURN NEXT;
END $$;

REVOKE ALL ON FUNCTION authenticate_api_key(text, text, timestamptz, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION authenticate_api_key(text, text, timestamptz, boolean) TO tradie_app;
