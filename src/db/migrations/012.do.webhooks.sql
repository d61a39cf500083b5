-- Signed outbound webhooks: subscriptions, one delivery per (event, subscription), every attempt.
-- Fan-out happens in the transaction that records the event (a trigger on event_outbox), so an
-- event and its deliveries commit together; a NOTIFY at commit wakes the dispatcher at once.

CREATE TABLE webhook_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  url text NOT NULL,
  events text[] NOT NULL,             -- canonical dotted names
  description text,
  secret text NOT NULL,               -- whsec_...; shown once
  previous_secret text,               -- still signed with until previous_secret_expires_at
  previous_secret_expires_at timestamptz,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason text,
  disabled_at timestamptz,
  failing_since timestamptz,          -- first failure since the last success
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX webhook_subscriptions_company ON webhook_subscriptions (company_id, created_at DESC, id DESC);
CREATE INDEX webhook_subscriptions_active ON webhook_subscriptions (company_id) WHERE status = 'active' AND deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id),
  event_id bigint NOT NULL REFERENCES event_outbox(id),
  event_type text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  redeliveries integer NOT NULL DEFAULT 0,
  workflow_started_at timestamptz,    -- null: the dispatcher has not started its workflow yet
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, subscription_id)
);
CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, created_at DESC);
CREATE INDEX webhook_deliveries_unstarted ON webhook_deliveries (created_at) WHERE workflow_started_at IS NULL;

CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id),
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id),
  attempt integer NOT NULL,
  run integer NOT NULL DEFAULT 0,     -- 0 first delivery, then each redelivery
  ok boolean NOT NULL,
  response_status integer,
  latency_ms integer NOT NULL,
  response_body text,                 -- first 1 KB
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (delivery_id, run, attempt)
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, created_at);

SELECT enable_tenant_rls(t) FROM unnest(ARRAY['webhook_subscriptions', 'webhook_deliveries', 'webhook_attempts']) AS t;
GRANT USAGE ON SEQUENCE webhook_attempts_id_seq TO tradie_app;

-- Runs as the writer of the event, under its company's row-level security: only that company's
-- subscriptions can match.
CREATE FUNCTION fan_out_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (company_id, subscription_id, event_id, event_type, created_at)
  SELECT NEW.company_id, s.id, NEW.id, NEW.event_type, NEW.created_at
  FROM webhook_subscriptions s
  WHERE s.company_id = NEW.company_id AND s.status = 'active' AND s.deleted_at IS NULL AND NEW.event_type = ANY (s.events);
  IF FOUND THEN PERFORM pg_notify('webhook_deliveries', ''); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER event_outbox_fan_out AFTER INSERT ON event_outbox FOR EACH ROW EXECUTE FUNCTION fan_out_event();

-- The dispatcher's cross-tenant view: deliveries whose workflow has not been started yet.
CREATE FUNCTION unstarted_webhook_deliveries(p_limit integer)
RETURNS TABLE (id uuid, company_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT id, company_id FROM webhook_deliveries WHERE workflow_started_at IS NULL ORDER BY created_at LIMIT p_limit $$;
REVOKE ALL ON FUNCTION unstarted_webhook_deliveries(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION unstarted_webhook_deliveries(integer) TO tradie_app;

CREATE FUNCTION mark_webhook_deliveries_started(p_ids uuid[]) RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp
AS $$ UPDATE webhook_deliveries SET workflow_started_at = now() WHERE id = ANY (p_ids) AND workflow_started_at IS NULL $$;
REVOKE ALL ON FUNCTION mark_webhook_deliveries_started(uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION mark_webhook_deliveries_started(uuid[]) TO tradie_app;
