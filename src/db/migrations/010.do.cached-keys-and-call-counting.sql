-- Authentication split in two, so only calls that pass authorisation are counted and the key
-- lookup can be cached for a second per process:
--  * resolve_api_key() finds a key by its hash, revoked ones included (the caller is told when it
--    was revoked), with the company's effective plan; it counts nothing;
--  * count_api_calls() counts calls against the month's limit once authorisation has passed.
-- authenticate_api_key() (migration 003) stays for a rolling deploy and is no longer called.

CREATE FUNCTION resolve_api_key(p_hash text, p_now timestamptz)
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
BEGIN
  SELECT a.* INTO k FROM api_keys a
    JOIN companies c ON c.id = a.company_id AND c.deleted_at IS NULL
    WHERE a.key_hash = p_hash;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT * INTO s FROM subscriptions x WHERE x.company_id = k.company_id;
  eff := CASE
    WHEN s.status = 'active' THEN s.plan_slug
    WHEN s.status = 'trialing' AND s.trial_ends_at > p_now THEN s.plan_slug
    ELSE 'free' END;
  SELECT * INTO p FROM plans WHERE slug = eff;

  -- Touch last_used_at at most once a minute so a busy key does not write on every lookup.
  IF k.revoked_at IS NULL THEN
    UPDATE api_keys SET last_used_at = p_now
      WHERE id = k.id AND (last_used_at IS NULL OR last_used_at < p_now - interval '1 minute');
  END IF;

  key_id := k.id; company_id := k.company_id; scopes := k.scopes; permission := k.permission;
  revoked_at := k.revoked_at;
  plan_slug := s.plan_slug; effective_plan_slug := eff; subscription_status := s.status;
  trial_ends_at := s.trial_ends_at; features := p.features;
  plan_limits := jsonb_build_object('sms', p.sms_per_month, 'emails', p.emails_per_month,
                                    'llm_calls', p.llm_calls_per_month, 'users', p.max_users);
  SELECT coalesce(c.api_call_limit_override, p.api_calls_per_month) INTO api_call_limit
    FROM companies c WHERE c.id = k.company_id;
  RETURN NEXT;
END $$;

-- Counts p_calls API calls for the month, all or none, only while they fit under the company's
-- limit as it stands now (the plan and any operator override are read here, not taken from the
-- caller's cache), so concurrent calls never overshoot and a plan change applies to the very next
-- call. p_calls > 1 is a batch of calls waiting in one process (see core/api-calls.ts). Returns
-- whether they were counted, the count after (or as it stands, when refused) and the limit; a
-- refused batch changes nothing. No row for a deleted company: its keys stop at once for counted
-- calls, whatever a cache still holds.
-- The counter commits asynchronously (as in migration 003): a database crash can forget the last
-- fraction of a second of counted calls, never count one twice, and the call waits for no WAL flush.
CREATE FUNCTION count_api_calls(p_company uuid, p_period text, p_now timestamptz, p_calls integer)
RETURNS TABLE (allowed boolean, used integer, api_call_limit integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  n integer;
BEGIN
  SELECT coalesce(c.api_call_limit_override, p.api_calls_per_month) INTO api_call_limit
    FROM companies c
    JOIN subscriptions s ON s.company_id = c.id
    JOIN plans p ON p.slug = CASE
      WHEN s.status = 'active' THEN s.plan_slug
      WHEN s.status = 'trialing' AND s.trial_ends_at > p_now THEN s.plan_slug
      ELSE 'free' END
    WHERE c.id = p_company AND c.deleted_at IS NULL;
  IF NOT FOUND THEN RETURN; END IF;
  IF p_calls BETWEEN 1 AND api_call_limit THEN
    PERFORM set_config('synchronous_commit', 'off', true);
    INSERT INTO usage_counters AS u (company_id, period, metric, count)
      VALUES (p_company, p_period, 'api_calls', p_calls)
      ON CONFLICT ON CONSTRAINT usage_counters_pkey DO UPDATE SET count = u.count + p_calls
        WHERE u.count + p_calls <= api_call_limit
      RETURNING u.count INTO n;
  END IF;
  allowed := n IS NOT NULL;
  IF n IS NULL THEN
    SELECT u.count INTO n FROM usage_counters u
      WHERE u.company_id = p_company AND u.period = p_period AND u.metric = 'api_calls';
  END IF;
  used := coalesce(n, 0);
  RETURN NEXT;
END $$;

REVOKE ALL ON FUNCTION resolve_api_key(text, timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION count_api_calls(uuid, text, timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION resolve_api_key(text, timestamptz) TO tradie_app;
GRANT EXECUTE ON FUNCTION count_api_calls(uuid, text, timestamptz, integer) TO tradie_app;
