-- Retention (issue 27): a daily Temporal Schedule (dataRetention, src/domains/ops/) deletes rows no
-- one reads any more, at most p_limit per call. Each call is one short statement in its own
-- transaction, and rows another transaction holds are skipped (SKIP LOCKED), so pruning never
-- queues behind, or holds up, the writes of the service. The functions are the maintenance role's
-- cross-tenant door, like the outbox relay's (002): SECURITY DEFINER, executable by the app role.

-- Indexes that find the old rows without scanning the live ones.
CREATE INDEX workflow_outbox_started ON workflow_outbox (created_at) WHERE started_at IS NOT NULL;
CREATE INDEX event_outbox_created ON event_outbox (created_at);
CREATE INDEX webhook_deliveries_settled ON webhook_deliveries (created_at) WHERE status <> 'pending';

-- Idempotency keys replay a response for 24 hours (expires_at); past that they only take space.
CREATE FUNCTION prune_idempotency_keys(p_now timestamptz, p_limit integer) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  WITH gone AS (
    DELETE FROM idempotency_keys WHERE (company_id, key) IN (
      SELECT company_id, key FROM idempotency_keys WHERE expires_at <= p_now
      ORDER BY expires_at LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING 1)
  SELECT count(*)::integer FROM gone
$$;

-- Workflow outbox rows whose workflow was started: the relay never reads them again.
CREATE FUNCTION prune_workflow_outbox(p_before timestamptz, p_limit integer) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  WITH gone AS (
    DELETE FROM workflow_outbox WHERE id IN (
      SELECT id FROM workflow_outbox WHERE started_at IS NOT NULL AND created_at < p_before
      ORDER BY created_at LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING 1)
  SELECT count(*)::integer FROM gone
$$;

-- Webhook deliveries that are settled (delivered, or failed for good) and their attempts. A pending
-- delivery keeps every attempt: its workflow is still counting them.
CREATE FUNCTION prune_webhook_deliveries(p_before timestamptz, p_limit integer)
RETURNS TABLE (deliveries integer, attempts integer)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  ids uuid[];
BEGIN
  SELECT coalesce(array_agg(id), '{}') INTO ids FROM (
    SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND created_at < p_before
    ORDER BY created_at LIMIT p_limit FOR UPDATE SKIP LOCKED) AS old;
  DELETE FROM webhook_attempts WHERE delivery_id = ANY (ids);
  GET DIAGNOSTICS attempts = ROW_COUNT;
  DELETE FROM webhook_deliveries WHERE id = ANY (ids);
  GET DIAGNOSTICS deliveries = ROW_COUNT;
  RETURN NEXT;
END $$;

-- Domain events are settled once no webhook delivery refers to one (deliveries go after their own
-- retention, above). A quote.sent event stays while its quote still awaits a reply: the quote
-- follow-up reads a re-send's time from it (automations/quote-follow-up/queries.ts).
CREATE FUNCTION prune_event_outbox(p_before timestamptz, p_limit integer) RETURNS integer
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  WITH gone AS (
    DELETE FROM event_outbox WHERE id IN (
      SELECT e.id FROM event_outbox e
      WHERE e.created_at < p_before
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
        AND NOT (e.event_type = 'quote.sent'
                 AND EXISTS (SELECT 1 FROM quotes q WHERE q.id = e.entity_id AND q.status IN ('Sent', 'Viewed')))
      ORDER BY e.created_at LIMIT p_limit FOR UPDATE SKIP LOCKED)
    RETURNING 1)
  SELECT count(*)::integer FROM gone
$$;

REVOKE ALL ON FUNCTION prune_idempotency_keys(timestamptz, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION prune_workflow_outbox(timestamptz, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION prune_webhook_deliveries(timestamptz, integer) FROM PUBLIC;
REVOKE ALL ON FUNCTION prune_event_outbox(timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION prune_idempotency_keys(timestamptz, integer) TO tradie_app;
GRANT EXECUTE ON FUNCTION prune_workflow_outbox(timestamptz, integer) TO tradie_app;
GRANT EXECUTE ON FUNCTION prune_webhook_deliveries(timestamptz, integer) TO tradie_app;
GRANT EXECUTE ON FUNCTION prune_event_outbox(timestamptz, integer) TO tradie_app;
