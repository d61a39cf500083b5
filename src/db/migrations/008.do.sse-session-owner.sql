-- A legacy SSE session belongs to the key that opened it: a POST into the stream must carry that
-- same key (so that same company), whichever API instance it reaches. Only the key id is stored: a
-- key belongs to one company, and this cross-tenant routing table holds no tenant data. The column
-- is nullable so instances still running the previous release can keep registering streams during
-- a rolling deploy; a session without an owner accepts no POST (its client reconnects with a key).
ALTER TABLE mcp_sse_sessions
  ADD COLUMN key_id uuid REFERENCES api_keys(id) ON DELETE CASCADE;
