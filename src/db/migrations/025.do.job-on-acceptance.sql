-- Whether a quote the client accepts opens its job at once (status Quoted, no date yet), so the
-- owner or an agent goes straight to scheduling it. On by default: a trade business that wins a quote
-- has a job to do; a company that books jobs its own way turns it off (company.update_profile).
ALTER TABLE companies ADD COLUMN create_job_on_acceptance boolean NOT NULL DEFAULT true;
