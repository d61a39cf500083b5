-- Ad spend a company records (POST /ad-spend, REST only), for workflows.search_ads_pipeline: cost
-- per lead and per won job by lead source and campaign. A lead's campaign is read from its source,
-- written "<source>:<campaign>" (google_ads:spring-promo); the Lead keeps the spec's fields.
-- source and campaign are stored lower-case, as the report groups them.
CREATE TABLE ad_spend (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  source text NOT NULL CHECK (length(source) BETWEEN 1 AND 100 AND source = lower(source) AND position(':' in source) = 0),
  campaign text CHECK (campaign IS NULL OR (length(campaign) BETWEEN 1 AND 100 AND campaign = lower(campaign))), -- null: the source as a whole
  -- Local calendar dates, both inclusive: a report over part of the period counts the days it covers.
  period_start date NOT NULL,
  period_end date NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0 AND amount_cents <= 100000000000),
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (period_end >= period_start)
);
CREATE INDEX ad_spend_company_period ON ad_spend (company_id, period_start, period_end);
CREATE INDEX ad_spend_company_created ON ad_spend (company_id, created_at DESC, id DESC);
SELECT enable_tenant_rls('ad_spend');
