-- Reminder timers and review requests.
--
-- A reminder's timer is a Temporal workflow per schedule: every change of its due time or of
-- done bumps schedule_revision, and the workflow of the new revision takes over (the older one
-- stands down). The revision is part of the workflow id and of the owner's notice key, so a moved
-- reminder fires at its new time and a retried notice is never sent twice.
ALTER TABLE reminders ADD COLUMN schedule_revision integer NOT NULL DEFAULT 1;
CREATE INDEX reminders_company_lead ON reminders (company_id, lead_id) WHERE lead_id IS NOT NULL;
CREATE INDEX reminders_company_job ON reminders (company_id, job_id) WHERE job_id IS NOT NULL;

-- The company's review links, one per platform; at most one is the default.
CREATE TABLE review_links (
  company_id uuid NOT NULL REFERENCES companies(id),
  platform text NOT NULL CHECK (platform IN ('google', 'facebook', 'hipages', 'productreview', 'wordofmouth',
                                             'trustpilot', 'yelp', 'truelocal', 'serviceseeking')),
  url text NOT NULL CHECK (url LIKE 'https://%'),
  is_default boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, platform)
);
CREATE UNIQUE INDEX review_links_one_default ON review_links (company_id) WHERE is_default;
SELECT enable_tenant_rls('review_links');

-- Every review request sent for a job: the first is request 1; each forced repeat adds one.
CREATE TABLE review_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  job_id uuid NOT NULL REFERENCES jobs(id),
  request_number integer NOT NULL,
  platform text NOT NULL,
  url text NOT NULL,
  channels text[] NOT NULL,           -- what was queued: sms and/or email
  skipped text[] NOT NULL DEFAULT '{}', -- why a requested channel was not used
  workflow_id text NOT NULL,          -- the deliverMessages run carrying the messages
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, job_id, request_number)
);
CREATE INDEX review_requests_company_created ON review_requests (company_id, created_at DESC, id DESC);
SELECT enable_tenant_rls('review_requests');
