-- When the request holding a running idempotency claim first committed a change (core/claim-scope.ts:
-- withTenant marks the claim inside each of the request's transactions that wrote, so the mark
-- commits with the change or not at all). A claim whose request committed a change and then stopped
-- beating without completing (its process died, or the completion could not be written) is never
-- taken over: running the write again would repeat the change. A retry is told the first request's
-- answer was lost instead (core/idempotency.ts).
ALTER TABLE idempotency_keys ADD COLUMN wrote_at timestamptz;
