-- Wallet deposits (issue 22): a deposit is asked for first (pending, with a hosted payment: Stripe
-- Checkout in payment mode, the sandbox card page, or a crypto provider's pay page) and credited
-- only when the payment is confirmed (a verified processor event or the sandbox page). The credit is
-- the ledger entry of kind 'deposit' whose reference is this row's id, so the unique index of
-- migration 027 makes a second confirmation a duplicate that changes nothing.
CREATE TABLE wallet_deposits (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  method text NOT NULL CHECK (method IN ('card', 'crypto')),
  -- The payments or crypto provider that takes the money (sandbox, stripe, ...).
  provider text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents >= 500 AND amount_cents <= 1000000),
  asset text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'credited')),
  -- The provider's session or invoice id, and the payment that settled it.
  provider_session_id text,
  provider_payment_id text,
  -- The sandbox pay page is found by this unguessable token (its URL is the credential).
  pay_token text NOT NULL UNIQUE,
  pay_url text,
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  credited_at timestamptz,
  CHECK ((status = 'credited') = (credited_at IS NOT NULL))
);
CREATE INDEX wallet_deposits_company ON wallet_deposits (company_id, created_at DESC);
SELECT enable_tenant_rls('wallet_deposits');

-- The sandbox pay pages carry only the token; this tells which company the deposit belongs to.
CREATE FUNCTION wallet_deposit_company(p_token text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM wallet_deposits WHERE pay_token = p_token $$;
REVOKE ALL ON FUNCTION wallet_deposit_company(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION wallet_deposit_company(text) TO tradie_app;
