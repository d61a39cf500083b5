-- Subcontractor dispatch (issue 23, item 2): one dispatch per subcontractors.dispatch call (its
-- Temporal run, dispatch:<company>:<job>:<n>), and one row per offer with its answer, so every
-- offer, accept, decline and timeout is on record with its time. The job gets the accepting
-- subcontractor (jobs.subcontractor_id).
ALTER TABLE jobs ADD COLUMN subcontractor_id uuid REFERENCES subcontractors(id);

CREATE TABLE dispatches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  job_id uuid NOT NULL REFERENCES jobs(id),
  number integer NOT NULL,
  workflow_id text NOT NULL UNIQUE,
  trade text,
  -- The candidates in offer order, and those left out before any offer, each with its reason.
  candidates uuid[] NOT NULL,
  excluded jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'accepted', 'exhausted', 'cancelled')),
  subcontractor_id uuid REFERENCES subcontractors(id),
  outcome text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz,
  UNIQUE (company_id, job_id, number)
);
SELECT enable_tenant_rls('dispatches');

CREATE TABLE dispatch_offers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  dispatch_id uuid NOT NULL REFERENCES dispatches(id),
  subcontractor_id uuid NOT NULL REFERENCES subcontractors(id),
  position integer NOT NULL,
  -- The accept/decline page's token: random, carried only in the offer's link.
  token text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'offered' CHECK (status IN ('offered', 'accepted', 'declined', 'timed_out', 'withdrawn', 'skipped')),
  reason text,
  offered_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  answered_at timestamptz,
  UNIQUE (dispatch_id, position)
);
CREATE INDEX dispatch_offers_dispatch ON dispatch_offers (dispatch_id, position);
SELECT enable_tenant_rls('dispatch_offers');

-- The offer page carries only its token.
CREATE FUNCTION dispatch_offer_company(p_token text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM dispatch_offers WHERE token = p_token $$;
REVOKE ALL ON FUNCTION dispatch_offer_company(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION dispatch_offer_company(text) TO tradie_app;
