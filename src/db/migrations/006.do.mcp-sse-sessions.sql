-- Legacy MCP SSE streams live in one API process; a POST for a stream may reach another. This
-- registry says which sessions are open (no tenant data: a session id, an instance, liveness).
-- Responses travel to the holding instance over LISTEN/NOTIFY (channel mcp_sse), never stored.
CREATE TABLE mcp_sse_sessions (
  id text PRIMARY KEY,
  instance_id text NOT NULL,
  opened_at timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mcp_sse_sessions_instance ON mcp_sse_sessions (instance_id);
GRANT SELECT, INSERT, UPDATE, DELETE ON mcp_sse_sessions TO tradie_app;
