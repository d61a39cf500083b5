-- Indexes for every filter the list operations offer. Each list pages newest first by
-- (created_at DESC, id DESC), by offset or by keyset cursor, so each filter gets
-- (company_id, <filter>, created_at DESC, id DESC): filter, order and cursor are one index range,
-- and a page reads only its own rows however many the company has. company_id leads because the
-- tenant policy (company_id = current_company_id()) is on every query.

-- leads.list: status, priority. The old status index lacked the id tie-breaker the order needs.
CREATE INDEX leads_company_status_created ON leads (company_id, status, created_at DESC, id DESC);
DROP INDEX leads_company_status;
CREATE INDEX leads_company_priority_created ON leads (company_id, priority, created_at DESC, id DESC);

-- quotes.list: status (lead_id is served by quotes_lead). The status asked for is the effective
-- one: a Sent or Viewed quote past valid_until reads as Expired. So Sent and Viewed also test
-- valid_until (included, so a count needs no table reads), and Expired walks the quotes that can
-- be expired, newest first: the still-valid ones it skips are the few sent in the last weeks.
CREATE INDEX quotes_company_status_created ON quotes (company_id, status, created_at DESC, id DESC) INCLUDE (valid_until);
CREATE INDEX quotes_company_expirable_created ON quotes (company_id, created_at DESC, id DESC) INCLUDE (status, valid_until)
  WHERE status IN ('Sent', 'Viewed', 'Expired');

-- jobs.list: status, technician, scheduled date range (lead_id is served by jobs_lead).
CREATE INDEX jobs_company_status_created ON jobs (company_id, status, created_at DESC, id DESC);
CREATE INDEX jobs_company_technician_created ON jobs (company_id, technician, created_at DESC, id DESC);
CREATE INDEX jobs_company_scheduled ON jobs (company_id, scheduled_date);

-- services.list: newest first, by active and by category. services_company (active, name) served
-- no query.
CREATE INDEX services_company_created ON services (company_id, created_at DESC, id DESC);
CREATE INDEX services_company_active_created ON services (company_id, active, created_at DESC, id DESC);
CREATE INDEX services_company_category_created ON services (company_id, category, created_at DESC, id DESC);
DROP INDEX services_company;

-- clients.list search: a substring (ILIKE '%text%') of a lead's name, email, phone, address or
-- suburb. One multi-column trigram index serves each column's condition, and their OR as a
-- BitmapOr. pg_trgm is a trusted extension: the database owner may create it without superuser.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX leads_search_trgm ON leads
  USING gin (name gin_trgm_ops, email gin_trgm_ops, phone gin_trgm_ops, address gin_trgm_ops, suburb gin_trgm_ops);

-- Under row level security Postgres uses an index only for leakproof operators, and ILIKE is not
-- one: from the app role the search would read every company's leads. So the search runs here,
-- as the migration owner (superuser or BYPASSRLS, see 002), with the tenant condition written
-- out: the caller's own company (app.company_id, set by withTenant) and no other, as RLS would.
-- ROWS: a search names a client, so it matches a few leads; the default guess of 1000 would have
-- the planner read every lead to join them instead of looking each match up by id.
CREATE FUNCTION lead_ids_matching(p_pattern text) RETURNS SETOF uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp ROWS 20
AS $$
  SELECT id FROM leads
  WHERE company_id = current_company_id()
    AND (name ILIKE p_pattern OR email ILIKE p_pattern OR phone ILIKE p_pattern
         OR address ILIKE p_pattern OR suburb ILIKE p_pattern)
$$;
REVOKE ALL ON FUNCTION lead_ids_matching(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lead_ids_matching(text) TO tradie_app;
