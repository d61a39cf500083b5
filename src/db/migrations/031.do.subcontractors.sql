-- Subcontractors (issue 23, item 1): the register of the trades a business sends work to, the
-- history of every status move (who, when, why, and what the licence/ABN register said), and the
-- expiry reminders already raised (one per document and expiry date).
--
-- trades and service_suburbs are stored trimmed and lower case, so the list filters match however
-- a caller capitalises them and the GIN indexes serve them.
CREATE TABLE subcontractors (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  name text NOT NULL,
  trades text[] NOT NULL CHECK (cardinality(trades) BETWEEN 1 AND 20),
  phone text,
  email text,
  abn text CHECK (abn ~ '^\d{11}$'),
  licence_number text,
  licence_class text,
  licence_state text,
  licence_expiry date,
  insurer text,
  policy_number text,
  insurance_expiry date,
  service_suburbs text[] NOT NULL DEFAULT '{}',
  service_radius_km integer CHECK (service_radius_km BETWEEN 1 AND 1000),
  available boolean NOT NULL DEFAULT true,
  notes text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'active', 'suspended', 'inactive')),
  register_check jsonb NOT NULL,
  verified_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX subcontractors_company_created ON subcontractors (company_id, created_at DESC, id DESC);
CREATE INDEX subcontractors_company_status ON subcontractors (company_id, status, created_at DESC, id DESC);
CREATE INDEX subcontractors_trades ON subcontractors USING gin (trades);
CREATE INDEX subcontractors_suburbs ON subcontractors USING gin (service_suburbs);
SELECT enable_tenant_rls('subcontractors');

-- One row per subcontractors.verify call that moved (or re-confirmed) a status.
CREATE TABLE subcontractor_verifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  subcontractor_id uuid NOT NULL REFERENCES subcontractors(id),
  action text NOT NULL CHECK (action IN ('verify', 'activate', 'suspend', 'deactivate')),
  from_status text NOT NULL,
  to_status text NOT NULL,
  by_key text NOT NULL,
  reason text,
  register_check jsonb,
  at timestamptz NOT NULL
);
CREATE INDEX subcontractor_verifications_sub ON subcontractor_verifications (subcontractor_id, at);
SELECT enable_tenant_rls('subcontractor_verifications');

-- The expiry reminders raised: the key makes a second register/verify with the same expiry raise none.
CREATE TABLE subcontractor_expiry_reminders (
  company_id uuid NOT NULL REFERENCES companies(id),
  subcontractor_id uuid NOT NULL REFERENCES subcontractors(id),
  document text NOT NULL CHECK (document IN ('licence', 'insurance')),
  expires_on date NOT NULL,
  reminder_id uuid NOT NULL REFERENCES reminders(id),
  PRIMARY KEY (subcontractor_id, document, expires_on)
);
SELECT enable_tenant_rls('subcontractor_expiry_reminders');
