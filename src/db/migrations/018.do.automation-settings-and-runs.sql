-- Automations (the "workflows" tools): per-company on/off, approval and settings for each
-- automation, and every run with its outcome (workflows.list shows the last runs).

-- automation_settings exists since 004 (on/off only): it gains the approval flag and the settings.
ALTER TABLE automation_settings
  ADD COLUMN needs_approval boolean NOT NULL DEFAULT false,
  ADD COLUMN settings jsonb NOT NULL DEFAULT '{}';  -- validated against the automation's settings schema

CREATE TABLE automation_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  automation text NOT NULL,
  subject_type text,                  -- quote, invoice, job, lead, company
  subject_id uuid,
  workflow_id text NOT NULL,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'stopped', 'failed')),
  outcome text,                       -- short words: "3 follow-ups sent", "stopped: quote accepted"
  details jsonb NOT NULL DEFAULT '[]', -- steps taken, each {at, step, result}
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  UNIQUE (company_id, workflow_id)
);
CREATE INDEX automation_runs_company_automation ON automation_runs (company_id, automation, started_at DESC);

SELECT enable_tenant_rls('automation_runs');
