-- Webhook deliveries drained in batches by one long-lived workflow per subscription (issue 27).
-- The retry state that lived in each delivery's own workflow (which attempt comes next, and when)
-- moves onto the delivery row, so the subscription's workflow can claim what is due with one query.
--   next_attempt     the number of the next attempt in the current run (1 first, back to 1 on a redelivery)
--   next_attempt_at  when it is due; pushed ahead by a lease while a batch holds it; null once
--                    settled, and null on rows a per-delivery workflow (webhookDelivery) still owns
ALTER TABLE webhook_deliveries ADD COLUMN next_attempt integer NOT NULL DEFAULT 1;
ALTER TABLE webhook_deliveries ADD COLUMN next_attempt_at timestamptz;
-- Added without a default first, so the rows older workflows own stay null; new rows are due at once.
ALTER TABLE webhook_deliveries ALTER COLUMN next_attempt_at SET DEFAULT now();
-- Deliveries no workflow has been started for yet go to the new design.
UPDATE webhook_deliveries SET next_attempt_at = created_at WHERE workflow_started_at IS NULL AND status = 'pending';
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (subscription_id, next_attempt_at) WHERE status = 'pending' AND next_attempt_at IS NOT NULL;

-- The dispatcher's cross-tenant view, now with the subscription: it signals one workflow per
-- subscription for all of that subscription's new deliveries.
CREATE FUNCTION unsignalled_webhook_deliveries(p_limit integer)
RETURNS TABLE (id uuid, company_id uuid, subscription_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT id, company_id, subscription_id FROM webhook_deliveries WHERE workflow_started_at IS NULL ORDER BY created_at LIMIT p_limit $$;
REVOKE ALL ON FUNCTION unsignalled_webhook_deliveries(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION unsignalled_webhook_deliveries(integer) TO tradie_app;
