-- Probe (temporary): one tenant table.
CREATE TABLE probe_pings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  word text NOT NULL,
  answered_at timestamptz
);
SELECT enable_tenant_rls('probe_pings');
