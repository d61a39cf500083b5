-- Where an automation run is now, for the tools that report it (invoicing.chase shows a payment
-- chase's tier and next step): automation-specific, e.g. {"tier": "firm", "steps_sent": 3,
-- "next": {"step": "step 4: final", "at": "..."}}. And finding a subject's runs (an invoice's chase).
ALTER TABLE automation_runs ADD COLUMN progress jsonb;
CREATE INDEX automation_runs_subject ON automation_runs (company_id, subject_type, subject_id, started_at DESC);
