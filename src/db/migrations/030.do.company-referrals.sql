-- Company referrals (issue 22, ecosystem.referral_link). Not the client codes of migration 022: those
-- belong to a business's clients and bring it leads; these belong to a business and bring the
-- service new businesses (docs/decisions.md, "Company referral codes").
--
-- A company's own code: one per company, stable, unique across the service (a new company names it
-- at sign-up as referral_code). Made at sign-up, or on the first ecosystem.referral_link for a
-- company older than this table.
CREATE TABLE company_referral_codes (
  company_id uuid PRIMARY KEY REFERENCES companies(id),
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{6,16}$'),
  created_at timestamptz NOT NULL DEFAULT now()
);
SELECT enable_tenant_rls('company_referral_codes');

-- One row per referred company (company_id, the tenant that owns it: a company is referred once).
-- reward_cents is the credit each side gets, fixed when the referral is recorded; rewarded_at and
-- reward_event say when and by what (the first paid period's event) it was given.
CREATE TABLE referrals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL UNIQUE REFERENCES companies(id),
  referrer_company_id uuid NOT NULL REFERENCES companies(id),
  code text NOT NULL,
  reward_cents bigint NOT NULL CHECK (reward_cents >= 0),
  created_at timestamptz NOT NULL,
  rewarded_at timestamptz,
  reward_event text,
  CHECK (referrer_company_id <> company_id)   -- a code cannot refer its own company
);
CREATE INDEX referrals_referrer ON referrals (referrer_company_id);
SELECT enable_tenant_rls('referrals');
-- The referrer reads the referrals it brought (the counts ecosystem.referral_link shows); only the
-- referred company writes its row. Permissive policies add up: either side may read.
CREATE POLICY referrer_reads ON referrals FOR SELECT USING (referrer_company_id = current_company_id());

-- The company a code belongs to (for a sign-up, before the new company exists), and whether it is
-- the same business as the one signing up (the same ABN: a second account of one business).
CREATE FUNCTION referral_code_owner(p_code text, p_abn text)
RETURNS TABLE (company_id uuid, same_business boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$
  SELECT r.company_id, (p_abn IS NOT NULL AND c.abn = p_abn)
  FROM company_referral_codes r JOIN companies c ON c.id = r.company_id
  WHERE r.code = p_code AND c.deleted_at IS NULL
$$;
REVOKE ALL ON FUNCTION referral_code_owner(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION referral_code_owner(text, text) TO tradie_app;

-- The referral's reward, once: when the referred company's first paid period is settled, both
-- companies get reward_cents of wallet credit (wallet_post, kind 'referral', reference the
-- referral's id, so a second posting is a duplicate), and the referral is marked rewarded under its
-- row lock. Runs in the caller's transaction, whatever its tenant (a sign-up, a checkout, a
-- processor event). status: none (not referred) | already | rewarded.
CREATE FUNCTION referral_reward(p_company uuid, p_event text, p_now timestamptz)
RETURNS TABLE (status text, referral_id uuid, referrer_company_id uuid, reward_cents bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
DECLARE
  r referrals%ROWTYPE;
  ref text;
BEGIN
  SELECT * INTO r FROM referrals WHERE referrals.company_id = p_company FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'none'::text, NULL::uuid, NULL::uuid, 0::bigint;
    RETURN;
  END IF;
  IF r.rewarded_at IS NOT NULL THEN
    RETURN QUERY SELECT 'already'::text, r.id, r.referrer_company_id, r.reward_cents;
    RETURN;
  END IF;
  ref := 'referral:' || r.id;
  IF r.reward_cents > 0 THEN
    PERFORM wallet_post(r.referrer_company_id, 'referral', r.reward_cents, NULL, ref, r.company_id, 'Referral reward: a company you referred paid its first period', p_now);
    PERFORM wallet_post(r.company_id, 'referral', r.reward_cents, NULL, ref, r.referrer_company_id, 'Referral reward: your first paid period, with a referral code', p_now);
  END IF;
  UPDATE referrals SET rewarded_at = p_now, reward_event = p_event WHERE id = r.id;
  RETURN QUERY SELECT 'rewarded'::text, r.id, r.referrer_company_id, r.reward_cents;
END $$;
REVOKE ALL ON FUNCTION referral_reward(uuid, text, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION referral_reward(uuid, text, timestamptz) TO tradie_app;
