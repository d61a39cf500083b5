-- Subscriptions follow the payment processor (issue 22): every state Stripe reports, whether the
-- subscription ends at the period's end, a downgrade waiting for the period's end, and when the
-- first paid period was settled (referral credit hangs off it). One SQL definition of the plan whose
-- features apply now, used by the key lookup, the API-call counter and the usage reservation alike.
-- (028 is taken by another branch.)

ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check CHECK (status IN (
  'active', 'trialing', 'trial_expired', 'past_due', 'canceled', 'incomplete', 'incomplete_expired', 'unpaid', 'paused'));
ALTER TABLE subscriptions
  ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false,
  -- A lower plan chosen mid-period: the paid-for plan stays until current_period_end, then this one.
  ADD COLUMN scheduled_plan_slug text REFERENCES plans(slug),
  ADD COLUMN first_paid_at timestamptz;

-- Paid features while the subscription is active, past_due (the processor is still retrying the
-- card: docs/decisions.md) or in a trial that has not ended; free otherwise (canceled, unpaid,
-- incomplete, incomplete_expired, paused, trial_expired). A scheduled downgrade counts from the
-- period's end, even before the processor's renewal event arrives.
CREATE FUNCTION effective_plan(p_status text, p_plan text, p_trial_ends_at timestamptz,
                               p_scheduled text, p_period_end timestamptz, p_now timestamptz)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN p_status IN ('active', 'past_due') OR (p_status = 'trialing' AND p_trial_ends_at > p_now)
      THEN CASE WHEN p_scheduled IS NOT NULL AND p_period_end <= p_now THEN p_scheduled ELSE p_plan END
    ELSE 'free' END
$$;
GRANT EXECUTE ON FUNCTION effective_plan(text, text, timestamptz, text, timestamptz, timestamptz) TO tradie_app;

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
BEGIN
  SELECT a.* INTO k FROM api_keys a
    JOIN companies c ON c.id = a.company_id AND c.deleted_at IS NULL
    WHERE a.key_hash = p_hash;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT * INTO s FROM subscriptions x WHERE x.company_id = k.company_id;
  eff := effective_plan(s.status, s.plan_slug, s.trial_ends_at, s.scheduled_plan_slug, s.current_period_end, p_now);
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

CREATE OR REPLACE FUNCTION count_api_calls(p_company uuid, p_period text, p_now timestamptz, p_calls integer)
RETURNS TABLE (allowed boolean, used integer, api_call_limit integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  n integer;
BEGIN
  SELECT coalesce(c.api_call_limit_override, p.api_calls_per_month) INTO api_call_limit
    FROM companies c
    JOIN subscriptions s ON s.company_id = c.id
    JOIN plans p ON p.slug = effective_plan(s.status, s.plan_slug, s.trial_ends_at, s.scheduled_plan_slug, s.current_period_end, p_now)
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

CREATE OR REPLACE FUNCTION reserve_usage(p_company uuid, p_period text, p_metric text, p_count integer, p_now timestamptz)
RETURNS TABLE (allowed boolean, used integer, usage_limit integer, effective_plan_slug text)
LANGUAGE plpgsql AS $$
DECLARE
  s subscriptions%ROWTYPE;
  n integer;
BEGIN
  SELECT * INTO s FROM subscriptions x WHERE x.company_id = p_company;
  effective_plan_slug := effective_plan(s.status, s.plan_slug, s.trial_ends_at, s.scheduled_plan_slug, s.current_period_end, p_now);
  SELECT CASE p_metric WHEN 'sms' THEN p.sms_per_month WHEN 'emails' THEN p.emails_per_month
                       WHEN 'llm_calls' THEN p.llm_calls_per_month END
    INTO usage_limit FROM plans p WHERE p.slug = effective_plan_slug;
  IF usage_limit IS NULL THEN RAISE EXCEPTION 'reserve_usage: unknown metric %', p_metric; END IF;
  IF p_count <= usage_limit THEN
    INSERT INTO usage_counters AS u (company_id, period, metric, count)
      VALUES (p_company, p_period, p_metric, p_count)
      ON CONFLICT ON CONSTRAINT usage_counters_pkey DO UPDATE SET count = u.count + p_count
        WHERE u.count + p_count <= usage_limit
      RETURNING u.count INTO n;
  END IF;
  allowed := n IS NOT NULL;
  IF n IS NULL THEN
    SELECT u.count INTO n FROM usage_counters u WHERE u.company_id = p_company AND u.period = p_period AND u.metric = p_metric;
  END IF;
  used := coalesce(n, 0);
  RETURN NEXT;
END $$;

-- A subscription event names the processor's subscription (and our company_id in its metadata);
-- this tells whose it is when the metadata is missing (a subscription changed outside our checkout).
CREATE FUNCTION subscription_company(p_provider text, p_subscription_id text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM subscriptions WHERE provider = p_provider AND provider_subscription_id = p_subscription_id $$;
REVOKE ALL ON FUNCTION subscription_company(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION subscription_company(text, text) TO tradie_app;
