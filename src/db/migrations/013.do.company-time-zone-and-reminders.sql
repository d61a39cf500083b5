-- The company's own time zone (reminders, schedules and "today" are local to the business; an
-- Australian business is in one of these zones), and reminders, which the reminders capability
-- fires with a durable Temporal timer and the dashboard reads.

ALTER TABLE companies ADD COLUMN time_zone text NOT NULL DEFAULT 'Australia/Sydney'
  CHECK (time_zone IN ('Australia/Sydney', 'Australia/Melbourne', 'Australia/Brisbane', 'Australia/Adelaide',
                       'Australia/Darwin', 'Australia/Perth', 'Australia/Hobart', 'Australia/Lord_Howe',
                       'Australia/Broken_Hill', 'Australia/Eucla', 'Antarctica/Macquarie'));

CREATE TABLE reminders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  title text NOT NULL,
  notes text,
  due_at timestamptz NOT NULL,
  lead_id uuid REFERENCES leads(id),
  job_id uuid REFERENCES jobs(id),
  notify_channel text CHECK (notify_channel IN ('sms', 'email', 'both')),  -- null: no notice to the owner
  fired_at timestamptz,               -- set once, by the reminder's workflow, when it came due
  done_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reminders_company_due ON reminders (company_id, due_at, id);
CREATE INDEX reminders_open_due ON reminders (company_id, due_at) WHERE done_at IS NULL;

SELECT enable_tenant_rls('reminders');
