-- How many leads each company has, kept by statement triggers on leads, so the unfiltered lead list's
-- `total` is one primary-key read instead of a count over the company's leads on every page
-- (issue 27 item 9; docs/decisions.md, "Fourth round"). Filtered lists still count.
--   n   the company's leads; a row appears with its first lead, no row reads as 0
-- Written only by the triggers' SECURITY DEFINER functions (the app role may read, not write), in the
-- inserting or deleting transaction: a lead and the total that includes it commit together.
CREATE TABLE lead_totals (
  company_id uuid PRIMARY KEY,
  n bigint NOT NULL CHECK (n >= 0)
);
ALTER TABLE lead_totals ENABLE ROW LEVEL SECURITY;
ALTER TABLE lead_totals FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON lead_totals USING (company_id = current_company_id()) WITH CHECK (company_id = current_company_id());
REVOKE ALL ON lead_totals FROM tradie_app;
GRANT SELECT ON lead_totals TO tradie_app;

-- One upsert per company per statement (a bulk insert is one update, not one per row), in company
-- order so two multi-company statements take the rows' locks in the same order.
CREATE FUNCTION count_inserted_leads() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
BEGIN
  INSERT INTO lead_totals (company_id, n)
  SELECT company_id, count(*) FROM inserted GROUP BY company_id ORDER BY company_id
  ON CONFLICT (company_id) DO UPDATE SET n = lead_totals.n + excluded.n;
  RETURN NULL;
END $$;

CREATE FUNCTION count_deleted_leads() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
BEGIN
  UPDATE lead_totals t SET n = t.n - d.n
  FROM (SELECT company_id, count(*) AS n FROM deleted GROUP BY company_id ORDER BY company_id) d
  WHERE t.company_id = d.company_id;
  RETURN NULL;
END $$;

CREATE FUNCTION count_truncated_leads() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
BEGIN
  DELETE FROM lead_totals;
  RETURN NULL;
END $$;

-- A lead never moves to another company (nothing updates company_id); this makes that a rule, since
-- a move would leave both companies' totals wrong.
CREATE FUNCTION refuse_lead_company_change() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  RAISE EXCEPTION 'a lead cannot move to another company' USING ERRCODE = 'check_violation';
END $$;

REVOKE ALL ON FUNCTION count_inserted_leads(), count_deleted_leads(), count_truncated_leads() FROM PUBLIC;

-- No lead is written between the backfill's count and the triggers' creation.
LOCK TABLE leads IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO lead_totals (company_id, n) SELECT company_id, count(*) FROM leads GROUP BY company_id;
CREATE TRIGGER leads_count_inserted AFTER INSERT ON leads REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION count_inserted_leads();
CREATE TRIGGER leads_count_deleted AFTER DELETE ON leads REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION count_deleted_leads();
CREATE TRIGGER leads_count_truncated AFTER TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION count_truncated_leads();
CREATE TRIGGER leads_company_fixed BEFORE UPDATE OF company_id ON leads
  FOR EACH ROW WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id) EXECUTE FUNCTION refuse_lead_company_change();
