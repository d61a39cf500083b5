// The company's first paid period is settled: what follows from it. Called by whatever settles a
// payment for a plan: sign-up with a payment method (onboarding), the sandbox checkout page
// (completeCheckout), and the processor's subscription events (invoice.paid, checkout completed).
// It may be called for every paid period and for the same event twice: each effect is given once.
// Today the one effect is the referral reward: both companies' wallet credit, once per referral
// (referral_reward, migration 030, keyed by the referral's id).
import type postgres from 'postgres'
import { rewardReferral, type RewardStatus } from '../ecosystem/queries.js'

/**
 * In the caller's transaction (any tenant: the reward's SQL is SECURITY DEFINER). `eventRef` names
 * what settled the period (e.g. an invoice or checkout session id), kept on the referral. `now`
 * defaults to the database's clock.
 */
export async function onFirstPaidPeriod(tx: postgres.TransactionSql, companyId: string, eventRef: string, now?: Date): Promise<{ referral: RewardStatus }> {
  const reward = await rewardReferral(tx, companyId, eventRef, now ?? null)
  return { referral: reward.status }
}
