-- Owner approval before a dispatch's first offer (issue 23, item 2): a company setting, off by
-- default, shown and changed in company.profile / company.update_profile. With it on, the dispatch
-- waits in workflows.pending_actions; a rejected or expired approval ends it 'not_approved'.
ALTER TABLE companies ADD COLUMN dispatch_requires_approval boolean NOT NULL DEFAULT false;

ALTER TABLE dispatches DROP CONSTRAINT dispatches_status_check;
ALTER TABLE dispatches ADD CONSTRAINT dispatches_status_check CHECK (status IN ('running', 'accepted', 'exhausted', 'cancelled', 'not_approved'));
