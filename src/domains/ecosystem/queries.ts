// Company referral SQL (migration 030): a company's own code and the referrals it brought read in
// its tenant transaction; the code's owner at sign-up and the reward go through SECURITY DEFINER
// functions, since each reaches another company.
import type postgres from 'postgres'
import type { Sql } from '../../db/sql.js'

export async function findOwnCode(tx: postgres.TransactionSql): Promise<string | undefined> {
  return (await tx<{ code: string }[]>`select code from company_referral_codes`)[0]?.code
}

/** The code, or undefined when it is taken (by another company: the caller draws again) or the company already has one. */
export async function insertOwnCode(tx: postgres.TransactionSql, companyId: string, code: string, now: Date): Promise<boolean> {
  const rows = await tx`insert into company_referral_codes (company_id, code, created_at) values (${companyId}, ${code}, ${now}) on conflict do nothing returning code`
  return rows.length > 0
}

export async function countReferrals(tx: postgres.TransactionSql, companyId: string): Promise<{ sign_ups: number; rewarded: number }> {
  const [row] = await tx<{ sign_ups: number; rewarded: number }[]>`
    select count(*)::int as sign_ups, count(rewarded_at)::int as rewarded from referrals where referrer_company_id = ${companyId}`
  return row ?? { sign_ups: 0, rewarded: 0 }
}

export async function findCodeOwner(sql: Sql, code: string, abn: string | null): Promise<{ company_id: string; same_business: boolean } | undefined> {
  return (await sql<{ company_id: string; same_business: boolean }[]>`select company_id, same_business from referral_code_owner(${code}, ${abn})`)[0]
}

export async function insertReferral(tx: postgres.TransactionSql, r: { companyId: string; referrerId: string; code: string; rewardCents: number; now: Date }): Promise<void> {
  await tx`insert into referrals (company_id, referrer_company_id, code, reward_cents, created_at)
           values (${r.companyId}, ${r.referrerId}, ${r.code}, ${r.rewardCents}, ${r.now})`
}

export type RewardStatus = 'none' | 'already' | 'rewarded'

export async function rewardReferral(tx: postgres.TransactionSql, companyId: string, eventRef: string, now: Date | null) {
  const [row] = await tx<{ status: RewardStatus; referral_id: string | null; referrer_company_id: string | null; reward_cents: string }[]>`
    select * from referral_reward(${companyId}, ${eventRef}, coalesce(${now}::timestamptz, now()))`
  return { status: row!.status, referralId: row!.referral_id, referrerId: row!.referrer_company_id, rewardCents: Number(row!.reward_cents) }
}
