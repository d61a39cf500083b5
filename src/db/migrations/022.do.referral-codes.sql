-- Client referrals (workflows.referral_program). A referral code belongs to one client (the lead
-- who refers) and carries the reward offered; a lead created with source 'referral:<CODE>'
-- (leads.create) is recorded against the code, so the owner can see who referred whom and reward
-- the referrer. Codes are short, upper case and unique per company.
CREATE TABLE referral_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  lead_id uuid NOT NULL REFERENCES leads(id),      -- the referrer (a past client)
  code text NOT NULL CHECK (code ~ '^[A-Z0-9]{4,16}$'),
  reward_type text NOT NULL CHECK (reward_type IN ('discount', 'credit', 'gift_card')),
  reward_cents bigint NOT NULL CHECK (reward_cents >= 0),
  source_job_id uuid REFERENCES jobs(id),           -- the 5-star job that prompted it, when one did
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, code),
  UNIQUE (company_id, lead_id)                      -- one code per client: the offer is reused
);
SELECT enable_tenant_rls('referral_codes');

-- Each lead that came through a code (at most one code per referred lead).
CREATE TABLE referral_leads (
  company_id uuid NOT NULL REFERENCES companies(id),
  referral_code_id uuid NOT NULL REFERENCES referral_codes(id),
  lead_id uuid NOT NULL REFERENCES leads(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, lead_id)
);
CREATE INDEX referral_leads_code ON referral_leads (company_id, referral_code_id);
SELECT enable_tenant_rls('referral_leads');
