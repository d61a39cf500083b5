-- Retry-safe writes and enforced message quotas.

-- One helper for every future tenant table: enable and force RLS with the tenant policy.
CREATE FUNCTION enable_tenant_rls(t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
  EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
  EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = current_company_id()) WITH CHECK (company_id = current_company_id())', t);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO tradie_app', t);
END $$;
REVOKE ALL ON FUNCTION enable_tenant_rls(text) FROM PUBLIC;

-- The first response to a write carrying an idempotency key, replayed for 24 hours.
-- request_hash covers the operation and its input, so the same key with another body is refused.
CREATE TABLE idempotency_keys (
  company_id uuid NOT NULL REFERENCES companies(id),
  key text NOT NULL,
  operation text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  response jsonb,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
SELECT enable_tenant_rls('idempotency_keys');

-- Whether a message's send has been counted toward the monthly quota (counted once, before the
-- provider is called; given back if the provider refuses it for good).
ALTER TABLE communications ADD COLUMN quota_counted boolean NOT NULL DEFAULT false;

-- On-my-way notices are numbered per job: message and workflow ids come from the number, not the clock.
ALTER TABLE jobs ADD COLUMN eta_count integer NOT NULL DEFAULT 0;

-- Atomically counts p_count messages of a metric (sms, emails, llm_calls) against the month's limit
-- of the company's effective plan: all or nothing, never past the limit. Runs in the caller's
-- tenant transaction, so the count is undone if the caller rolls back.
CREATE FUNCTION reserve_usage(p_company uuid, p_period text, p_metric text, p_count integer, p_now timestamptz)
RETURNS TABLE (allowed boolean, used integer, usage_limit integer, effective_plan_slug text)
LANGUAGE plpgsql AS $$
DECLARE
  s subscriptions%ROWTYPE;
  n integer;
BEGIN
  SELECT * INTO s FROM subscriptions x WHERE x.company_id = p_company;
  effective_plan_slug := CASE
    WHEN s.status = 'active' THEN s.plan_slug
    WHEN s.status = 'trialing' AND s.trial_ends_at > p_now THEN s.plan_slug
    ELSE 'free' END;
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
GRANT EXECUTE ON FUNCTION reserve_usage(uuid, text, text, integer, timestamptz) TO tradie_app;
