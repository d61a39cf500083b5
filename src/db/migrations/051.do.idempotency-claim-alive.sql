-- A running idempotency claim's last sign of life (core/idempotency.ts). The request holding the claim
-- beats every few seconds while its write runs; another request with the same key takes the claim
-- over only once the beats have stopped for ABANDONED_AFTER_MS (its process died), not a fixed time
-- after the claim was made, which let a slow write still running (a language-model call, say) be run
-- a second time, and kept a killed process's key blocked for a minute. Null on rows claimed before
-- this column: their created_at stands in.
ALTER TABLE idempotency_keys ADD COLUMN alive_at timestamptz;
