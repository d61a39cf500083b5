-- The credit wallet (issue 22) as a ledger in integer cents. Every change of a company's credit is a
-- row of wallet_entries, signed (credit positive, debit negative), with the balance after it; the
-- balance is their sum. wallet_balances holds that sum per company as the row each posting locks,
-- so concurrent postings serialise and a debit that would go below zero is refused under the lock
-- (test/wallet-ledger.test.ts checks the cached sum against the entries).
CREATE TABLE wallet_balances (
  company_id uuid PRIMARY KEY REFERENCES companies(id),
  balance_cents bigint NOT NULL DEFAULT 0 CHECK (balance_cents >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE wallet_entries (
  id bigserial PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id),
  -- grant: starting credit; deposit: a confirmed payment; charge/refund: a tool call and its give-back;
  -- transfer_out/transfer_in: between companies; referral: a referral's reward.
  kind text NOT NULL CHECK (kind IN ('grant', 'deposit', 'charge', 'refund', 'transfer_out', 'transfer_in', 'referral')),
  amount_cents bigint NOT NULL CHECK (amount_cents <> 0),
  balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
  -- The tool a charge or refund belongs to.
  operation text,
  -- What makes the entry unique for its kind: a payment's id, a request id, a transfer id. A second
  -- posting with the same (company, kind, reference) is a duplicate and changes nothing.
  reference text,
  counterparty_company_id uuid REFERENCES companies(id),
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind IN ('grant', 'deposit', 'refund', 'transfer_in', 'referral')) = (amount_cents > 0))
);
CREATE UNIQUE INDEX wallet_entries_reference ON wallet_entries (company_id, kind, reference) WHERE reference IS NOT NULL;
CREATE INDEX wallet_entries_history ON wallet_entries (company_id, id DESC);
-- wallet.history's filters: one kind (a month of charges is thousands of rows beside a few deposits),
-- and a time window.
CREATE INDEX wallet_entries_kind ON wallet_entries (company_id, kind, id DESC);
CREATE INDEX wallet_entries_created ON wallet_entries (company_id, created_at);

SELECT enable_tenant_rls(t) FROM unnest(ARRAY['wallet_balances', 'wallet_entries']) AS t;
GRANT USAGE ON SEQUENCE wallet_entries_id_seq TO tradie_app;

-- One posting: lock the company's balance row, refuse a debit the balance does not cover or a
-- duplicate reference, else write the entry and the new balance. Runs inside a caller's transaction
-- (a write tool call's charge, a deposit credited with its payment) or as its own statement (a
-- refund, a grant). SECURITY DEFINER: a refund runs outside any tenant transaction.
-- status: applied | insufficient | duplicate.
CREATE FUNCTION wallet_post(
  p_company uuid, p_kind text, p_cents bigint, p_operation text, p_reference text,
  p_counterparty uuid, p_note text, p_now timestamptz
) RETURNS TABLE (status text, entry_id bigint, balance_cents bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  current_balance bigint;
  new_id bigint;
BEGIN
  SELECT b.balance_cents INTO current_balance FROM wallet_balances b WHERE b.company_id = p_company FOR UPDATE;
  IF NOT FOUND THEN -- the company's first posting
    INSERT INTO wallet_balances (company_id, balance_cents, updated_at) VALUES (p_company, 0, p_now)
      ON CONFLICT (company_id) DO NOTHING;
    SELECT b.balance_cents INTO current_balance FROM wallet_balances b WHERE b.company_id = p_company FOR UPDATE;
  END IF;
  IF p_reference IS NOT NULL AND EXISTS (
    SELECT 1 FROM wallet_entries e WHERE e.company_id = p_company AND e.kind = p_kind AND e.reference = p_reference
  ) THEN
    RETURN QUERY SELECT 'duplicate'::text, NULL::bigint, current_balance;
    RETURN;
  END IF;
  IF current_balance + p_cents < 0 THEN
    RETURN QUERY SELECT 'insufficient'::text, NULL::bigint, current_balance;
    RETURN;
  END IF;
  INSERT INTO wallet_entries (company_id, kind, amount_cents, balance_after_cents, operation, reference, counterparty_company_id, note, created_at)
    VALUES (p_company, p_kind, p_cents, current_balance + p_cents, p_operation, p_reference, p_counterparty, p_note, p_now)
    RETURNING id INTO new_id;
  UPDATE wallet_balances SET balance_cents = current_balance + p_cents, updated_at = p_now WHERE company_id = p_company;
  RETURN QUERY SELECT 'applied'::text, new_id, current_balance + p_cents;
END $$;
REVOKE ALL ON FUNCTION wallet_post(uuid, text, bigint, text, text, uuid, text, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wallet_post(uuid, text, bigint, text, text, uuid, text, timestamptz) TO tradie_app;

-- Companies that existed before the wallet start at zero, with their balance row.
INSERT INTO wallet_balances (company_id, balance_cents) SELECT id, 0 FROM companies ON CONFLICT DO NOTHING;

-- A transfer between two companies: both entries in one transaction, the two balance rows locked in
-- id order (two transfers crossing each other cannot deadlock), never below zero, never to oneself.
-- status: applied | insufficient | duplicate | same_company | no_recipient.
CREATE FUNCTION wallet_transfer(p_from uuid, p_to uuid, p_cents bigint, p_reference text, p_note text, p_now timestamptz)
RETURNS TABLE (status text, balance_cents bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  out_status text;
  out_balance bigint;
  in_status text;
BEGIN
  IF p_cents <= 0 THEN RAISE EXCEPTION 'wallet_transfer: amount must be positive'; END IF;
  IF p_from = p_to THEN
    RETURN QUERY SELECT 'same_company'::text, (SELECT b.balance_cents FROM wallet_balances b WHERE b.company_id = p_from);
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM companies c WHERE c.id = p_to AND c.deleted_at IS NULL) THEN
    RETURN QUERY SELECT 'no_recipient'::text, (SELECT b.balance_cents FROM wallet_balances b WHERE b.company_id = p_from);
    RETURN;
  END IF;
  INSERT INTO wallet_balances (company_id, balance_cents, updated_at) VALUES (p_from, 0, p_now), (p_to, 0, p_now)
    ON CONFLICT (company_id) DO NOTHING;
  PERFORM 1 FROM wallet_balances b WHERE b.company_id IN (p_from, p_to) ORDER BY b.company_id FOR UPDATE;
  SELECT w.status, w.balance_cents INTO out_status, out_balance
    FROM wallet_post(p_from, 'transfer_out', -p_cents, NULL, p_reference, p_to, p_note, p_now) w;
  IF out_status <> 'applied' THEN
    RETURN QUERY SELECT out_status, out_balance;
    RETURN;
  END IF;
  SELECT w.status INTO in_status FROM wallet_post(p_to, 'transfer_in', p_cents, NULL, p_reference, p_from, p_note, p_now) w;
  IF in_status <> 'applied' THEN RAISE EXCEPTION 'wallet_transfer: the credit side was %', in_status; END IF;
  RETURN QUERY SELECT 'applied'::text, out_balance;
END $$;
REVOKE ALL ON FUNCTION wallet_transfer(uuid, uuid, bigint, text, text, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wallet_transfer(uuid, uuid, bigint, text, text, timestamptz) TO tradie_app;

-- Tool-call charges of one company, arrived together, in one statement under one lock (the meter
-- batches calls that arrive while a charge is in flight, as the API-call counter does): each in
-- order, applied while the balance covers it, else refused; one entry per applied charge. Commits
-- without waiting for the WAL flush, as count_api_calls does: a crash can forget the last fraction of
-- a second of read charges (reads that were then free); deposits, transfers, grants and the charges
-- of writes (taken in the write's own transaction) keep synchronous commit. Returns one row per charge,
-- in order: applied (its entry) or insufficient, with the balance after it.
CREATE FUNCTION wallet_charge_many(p_company uuid, p_cents bigint[], p_operations text[], p_now timestamptz)
RETURNS TABLE (ord integer, status text, entry_id bigint, balance_cents bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  current_balance bigint;
  i integer;
  new_id bigint;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT b.balance_cents INTO current_balance FROM wallet_balances b WHERE b.company_id = p_company FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO wallet_balances (company_id, balance_cents, updated_at) VALUES (p_company, 0, p_now)
      ON CONFLICT (company_id) DO NOTHING;
    SELECT b.balance_cents INTO current_balance FROM wallet_balances b WHERE b.company_id = p_company FOR UPDATE;
  END IF;
  FOR i IN 1 .. coalesce(array_length(p_cents, 1), 0) LOOP
    IF p_cents[i] <= 0 THEN RAISE EXCEPTION 'wallet_charge_many: a charge is a positive number of cents'; END IF;
    IF current_balance >= p_cents[i] THEN
      current_balance := current_balance - p_cents[i];
      INSERT INTO wallet_entries (company_id, kind, amount_cents, balance_after_cents, operation, created_at)
        VALUES (p_company, 'charge', -p_cents[i], current_balance, p_operations[i], p_now)
        RETURNING id INTO new_id;
      ord := i; status := 'applied'; entry_id := new_id; balance_cents := current_balance;
    ELSE
      ord := i; status := 'insufficient'; entry_id := NULL; balance_cents := current_balance;
    END IF;
    RETURN NEXT;
  END LOOP;
  UPDATE wallet_balances SET balance_cents = current_balance, updated_at = p_now WHERE company_id = p_company;
END $$;
REVOKE ALL ON FUNCTION wallet_charge_many(uuid, bigint[], text[], timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wallet_charge_many(uuid, bigint[], text[], timestamptz) TO tradie_app;
