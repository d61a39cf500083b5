-- Service catalogue, quotes with line items and gapless per-company numbers, jobs and their costs.

CREATE TABLE services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  description text,
  category text,
  unit text NOT NULL DEFAULT 'each',
  unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),   -- ex GST
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX services_company ON services (company_id, active, name);

-- One row per company; the quote-creating transaction increments it under a row lock, so numbers
-- are gapless and unique even under concurrent creation (a rollback returns the number).
CREATE TABLE quote_counters (
  company_id uuid PRIMARY KEY REFERENCES companies(id),
  last_number integer NOT NULL
);

CREATE TABLE quotes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  lead_id uuid NOT NULL REFERENCES leads(id),
  quote_number text NOT NULL,
  status text NOT NULL CHECK (status IN ('Draft', 'Sent', 'Viewed', 'Accepted', 'Declined', 'Expired')),
  subtotal_cents bigint NOT NULL,
  gst_cents bigint NOT NULL,
  total_cents bigint NOT NULL,
  valid_until date NOT NULL,
  notes text,
  public_token text NOT NULL UNIQUE,
  sent_count integer NOT NULL DEFAULT 0,
  sent_at timestamptz,
  viewed_at timestamptz,
  accepted_at timestamptz,
  accepted_name text,
  accepted_ip text,
  declined_at timestamptz,
  decline_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, quote_number),
  CHECK (total_cents = subtotal_cents + gst_cents)
);
CREATE INDEX quotes_company_created ON quotes (company_id, created_at DESC, id DESC);
CREATE INDEX quotes_lead ON quotes (lead_id);

CREATE TABLE quote_line_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  quote_id uuid NOT NULL REFERENCES quotes(id) ON DELETE CASCADE,
  position integer NOT NULL,
  description text NOT NULL,
  quantity numeric(12, 3) NOT NULL CHECK (quantity > 0),
  unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
  total_cents bigint NOT NULL,
  unit_cost_cents bigint CHECK (unit_cost_cents >= 0),
  service_id uuid REFERENCES services(id),
  UNIQUE (quote_id, position)
);

CREATE TABLE jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  lead_id uuid NOT NULL REFERENCES leads(id),
  quote_id uuid REFERENCES quotes(id),
  title text NOT NULL,
  status text NOT NULL CHECK (status IN ('Quoted', 'Scheduled', 'In Progress', 'Completed', 'Cancelled')),
  scheduled_date timestamptz,
  address text,
  amount_cents bigint,
  technician text,
  notes text,
  completed_at timestamptz,
  satisfaction_rating integer CHECK (satisfaction_rating BETWEEN 1 AND 5),
  review_requested_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_company_created ON jobs (company_id, created_at DESC, id DESC);
CREATE INDEX jobs_lead ON jobs (lead_id);
-- One job per accepted quote.
CREATE UNIQUE INDEX jobs_quote_unique ON jobs (quote_id) WHERE quote_id IS NOT NULL;

CREATE TABLE job_costs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  job_id uuid NOT NULL REFERENCES jobs(id),
  description text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_costs_job ON job_costs (job_id);

ALTER TABLE communications ADD COLUMN quote_id uuid REFERENCES quotes(id);
ALTER TABLE communications ADD COLUMN job_id uuid REFERENCES jobs(id);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['services', 'quote_counters', 'quotes', 'quote_line_items', 'jobs', 'job_costs']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = current_company_id()) WITH CHECK (company_id = current_company_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON services, quote_counters, quotes, quote_line_items, jobs, job_costs TO tradie_app;

-- The public quote page carries only the unguessable token; this tells which company it belongs to.
CREATE FUNCTION quote_company_by_token(p_token text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM quotes WHERE public_token = p_token $$;
REVOKE ALL ON FUNCTION quote_company_by_token(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION quote_company_by_token(text) TO tradie_app;
