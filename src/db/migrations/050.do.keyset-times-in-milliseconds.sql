-- The time a keyset cursor carries is stored to the millisecond (docs/decisions.md, "Keyset times in
-- milliseconds"). A cursor holds its boundary row's time as the service read it, a JS Date, which
-- has milliseconds; a row stored with microseconds (a column default's now(), a bulk load, a row
-- written by hand) and sharing the boundary's millisecond compared as later than the cursor's time,
-- so the next page skipped every such row older than the boundary (25 of 47 leads bulk-inserted in
-- one statement). Stored as timestamptz(3), every time is what a Date holds, however it was written,
-- so the cursor's (time, id) is the boundary row's own and no row is skipped or repeated. The service
-- already wrote its own times with milliseconds; existing rows are rounded to the nearest millisecond
-- (the order of distinct times is kept; rows that now share a time are ordered by id, as ties were).
-- The columns are every timestamptz that an index orders just before its id, the keyset indexes of
-- the lists; test/keyset-times.test.ts finds them the same way and fails for one added later with
-- more precision.
ALTER TABLE ad_spend ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE communications ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE documents ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE integration_connections ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE invoices ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE jobs ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE leads ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE pending_actions ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE quotes ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE recurring_costs ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE reminders ALTER COLUMN due_at TYPE timestamptz(3);
ALTER TABLE review_requests ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE services ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE subcontractors ALTER COLUMN created_at TYPE timestamptz(3);
ALTER TABLE webhook_subscriptions ALTER COLUMN created_at TYPE timestamptz(3);
