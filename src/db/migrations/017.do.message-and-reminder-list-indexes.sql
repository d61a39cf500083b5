-- comms.list filters that would otherwise walk a company's whole message history, which grows with
-- every SMS and email. As in 009, each is (company_id, <filter>, created_at DESC, id DESC), so the
-- filter, the newest-first order and the cursor are one index range, and the capped count reads the
-- index alone.
--
-- delivery_status: the statuses worth asking for (failed, undelivered, queued) are a sliver of the
-- history. Indexing status means a provider's status callback is no longer a HOT update; callbacks
-- are a few per message, and the failed messages are the ones a business has to find.
CREATE INDEX communications_company_status_created ON communications (company_id, status, created_at DESC, id DESC);
-- message_type: most types (quote, invoice, eta, review_request, marketing, ...) are a small share
-- of the history. message_type never changes after the insert.
CREATE INDEX communications_company_type_created ON communications (company_id, message_type, created_at DESC, id DESC);
-- 014's communications_company_created_id (company_id, created_at DESC, id DESC) serves everything
-- this one did: one index less to write on every message.
DROP INDEX communications_company_created;
