-- The state or territory a company works in: its public holidays decide the next business day
-- (workflows.schedule_job, process_lead's reminder times). Nullable: set with PATCH
-- /api/v1/settings/company; until then scheduling by business day asks for it.
ALTER TABLE companies ADD COLUMN state text CHECK (state IN ('NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'));
