-- Costs a company pays on a schedule (rent, vehicle leases, insurance, software, wages), which the
-- cash-flow forecast subtracts and GET /financials counts as cash out, and the indexes the
-- financial and analytics reads need (each leads with company_id, the tenant condition, then time).

CREATE TABLE recurring_costs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0 AND amount_cents <= 100000000000),
  frequency text NOT NULL CHECK (frequency IN ('weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly')),
  -- The first date it is paid (a local calendar date); later payments follow from it by the frequency
  -- (monthly from the 31st falls on the last day of shorter months, never drifting).
  starts_on date NOT NULL,
  -- The last date it may fall on; deactivating sets it to the day of deactivation.
  ends_on date,
  active boolean NOT NULL DEFAULT true,
  deactivated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX recurring_costs_company_created ON recurring_costs (company_id, created_at DESC, id DESC);
SELECT enable_tenant_rls('recurring_costs');

-- The dates each recurring cost falls on between two local dates (inclusive). Occurrence k is
-- starts_on + k steps, computed from the anchor each time (so months do not drift); k runs only
-- over the steps that can land in the range (a step is at least `shortest` and at most `longest`
-- days), so an old anchor costs nothing. SECURITY INVOKER: row level
-- security applies, the caller sees its own company's costs only.
CREATE FUNCTION recurring_cost_occurrences(p_from date, p_to date)
RETURNS TABLE (cost_id uuid, name text, frequency text, on_date date, amount_cents bigint)
LANGUAGE sql STABLE SET search_path = public, pg_temp
AS $$
  WITH steps AS (
    SELECT c.*, s.months, s.days, s.shortest, s.longest
    FROM recurring_costs c
    JOIN (VALUES ('weekly', 0, 7, 7, 7), ('fortnightly', 0, 14, 14, 14), ('monthly', 1, 0, 28, 31),
                 ('quarterly', 3, 0, 89, 92), ('yearly', 12, 0, 365, 366)) AS s(frequency, months, days, shortest, longest)
      ON s.frequency = c.frequency
    WHERE c.starts_on <= p_to AND (c.ends_on IS NULL OR c.ends_on >= p_from)
  )
  SELECT st.id, st.name, st.frequency, d.on_date, st.amount_cents
  FROM steps st
  CROSS JOIN LATERAL generate_series(greatest(0, (p_from - st.starts_on) / st.longest - 1), (p_to - st.starts_on) / st.shortest) AS k
  CROSS JOIN LATERAL (SELECT (st.starts_on + make_interval(months => st.months * k, days => st.days * k))::date AS on_date) d
  WHERE d.on_date BETWEEN p_from AND p_to
    AND d.on_date >= st.starts_on
    AND (st.ends_on IS NULL OR d.on_date <= st.ends_on)
$$;
GRANT EXECUTE ON FUNCTION recurring_cost_occurrences(date, date) TO tradie_app;

-- Financials: invoices issued in a window, the open invoices of one client (payment history and
-- the forecast's weight), jobs completed in a window, job costs recorded in a window.
CREATE INDEX invoices_company_issued ON invoices (company_id, issue_date);
CREATE INDEX invoices_company_lead ON invoices (company_id, lead_id);
CREATE INDEX jobs_company_completed ON jobs (company_id, completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX job_costs_company_created ON job_costs (company_id, created_at);
