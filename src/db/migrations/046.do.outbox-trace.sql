-- The W3C traceparent of the request that queued a workflow start (src/tracing.ts), so the start
-- continues that trace even when the relay makes it later, in another process. Null outside a
-- trace (tracing off, or a row written by a background job). No default, so adding it is instant.
ALTER TABLE workflow_outbox ADD COLUMN traceparent text;
