-- The unfiltered lead list as one statement (issue 27 item 9; docs/decisions.md, "Fifth round"):
-- `select * from lead_list_page(company, limit, offset, after_created_at, after_id)` sets the tenant
-- and reads the page with its kept total, where a tenant read is otherwise four (BEGIN with the
-- setting, the page, COMMIT, on a reserved connection). Row level security still decides what it
-- sees: the function is SECURITY INVOKER, so the page is read as the app role, under the leads and
-- lead_totals policies, against the company it sets first.
-- Called on its own, the statement is its own transaction, so the setting (transaction-local) ends
-- with it and the connection goes back to the pool with no company. Called inside a transaction that
-- has another company set, it refuses: it would otherwise leave its company set for the rest of that
-- transaction.
-- Its plans are generic (plan_cache_mode): a LIMIT that is a parameter reads as "10% of the rows"
-- to the planner, so with the default the plan cache judged the generic plan dearer for a company
-- with thousands of leads and planned the page afresh on every call (the reason the prepared lists
-- write their LIMIT as a literal, core/paging.ts). The generic plan is the index scan in list order
-- for every page size.
-- The columns are those of a LeadRow (domains/leads/queries.ts) and list_total, the kept total capped
-- at COUNT_CAP + 1 (10,001) as the counted lists cap theirs; test/lead-list-page.test.ts holds its pages
-- to an owner-role read with the company in the WHERE clause, and its total to a count.
CREATE FUNCTION lead_list_page(p_company uuid, p_limit int, p_offset int, p_after_created_at timestamptz, p_after_id uuid)
RETURNS TABLE (id uuid, name text, phone text, email text, service_type text, status text, priority text,
               message text, address text, suburb text, source text, created_at timestamptz, updated_at timestamptz,
               list_total int)
LANGUAGE plpgsql SECURITY INVOKER
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
  IF p_company IS NULL OR p_limit IS NULL OR p_limit NOT BETWEEN 1 AND 100 OR coalesce(p_offset, 0) < 0
     OR (p_after_created_at IS NULL) <> (p_after_id IS NULL) THEN
    RAISE EXCEPTION 'lead_list_page: a company, a page size of 1 to 100, and a keyset position of both or neither part'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF coalesce(current_setting('app.company_id', true), '') NOT IN ('', p_company::text) THEN
    RAISE EXCEPTION 'lead_list_page: another company is set in this transaction'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  PERFORM set_config('app.company_id', p_company::text, true);
  IF p_after_created_at IS NOT NULL THEN
    RETURN QUERY
      SELECT l.id, l.name, l.phone, l.email, l.service_type, l.status, l.priority, l.message, l.address, l.suburb,
             l.source, l.created_at, l.updated_at,
             coalesce((SELECT least(t.n, 10001)::int FROM lead_totals t WHERE t.company_id = p_company), 0)
      FROM leads l
      WHERE l.company_id = p_company AND (l.created_at, l.id) < (p_after_created_at, p_after_id)
      ORDER BY l.created_at DESC, l.id DESC
      LIMIT p_limit;
  ELSE
    RETURN QUERY
      SELECT l.id, l.name, l.phone, l.email, l.service_type, l.status, l.priority, l.message, l.address, l.suburb,
             l.source, l.created_at, l.updated_at,
             coalesce((SELECT least(t.n, 10001)::int FROM lead_totals t WHERE t.company_id = p_company), 0)
      FROM leads l
      WHERE l.company_id = p_company
      ORDER BY l.created_at DESC, l.id DESC
      LIMIT p_limit OFFSET coalesce(p_offset, 0);
  END IF;
END $$;

REVOKE ALL ON FUNCTION lead_list_page(uuid, int, int, timestamptz, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION lead_list_page(uuid, int, int, timestamptz, uuid) TO tradie_app;
