// Company referrals: each company has one code of its own (made at sign-up, or on the first
// ecosystem.referral_link for an older company); a new company that signs up with it as
// referral_code is recorded as referred by it, and both get wallet credit (REFERRAL_CREDIT_CENTS,
// our amount) once the new company's first paid period is settled (billing/first-paid.ts).
// The code is in the client codes' format (core/referral-code.ts) but longer: it is unique across
// the service, not within one company (docs/decisions.md, "Company referral codes").
import type postgres from 'postgres'
import type { Principal } from '../../core/access.js'
import type { Deps, Urls } from '../../core/deps.js'
import { centsToDollars, formatCents } from '../../core/money.js'
import { newReferralCode, normaliseReferralCode } from '../../core/referral-code.js'
import { withTenant } from '../../db/sql.js'
import { countReferrals, findCodeOwner, findOwnCode, insertOwnCode, insertReferral } from './queries.js'

const OWN_CODE_LENGTH = 8

/** The public page a referral link opens (transports/pages/referral-page.ts). */
export const referralLink = (urls: Urls, code: string) => `${urls.siteRoot}/r/${code}`

/** The company's own code, made on first use; a clash with another company's code draws again. */
export async function ownReferralCode(tx: postgres.TransactionSql, companyId: string, now: Date): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await findOwnCode(tx)
    if (existing) return existing
    const code = newReferralCode(OWN_CODE_LENGTH)
    if (await insertOwnCode(tx, companyId, code, now)) return code
  }
  throw new Error('could not make a unique company referral code')
}

export async function getReferralLink(deps: Deps, principal: Principal) {
  const cents = deps.config.REFERRAL_CREDIT_CENTS
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const code = await ownReferralCode(tx, principal.companyId, deps.clock.now())
    const counts = await countReferrals(tx, principal.companyId)
    return {
      code,
      link: referralLink(deps.urls, code),
      sign_ups: counts.sign_ups,
      rewarded: counts.rewarded,
      reward: centsToDollars(cents),
      note: `A business that signs up with referral_code ${code} (or through the link) is recorded as yours; once its first paid month is settled, both wallets get ${formatCents(cents)} of credit, once.`,
    }
  })
}

/** What a referral_code given at sign-up names: its owner, nobody (unknown), or this same business. */
export type ReferralLookup =
  | { code: string; referrerId: string }
  | { code: string; referrerId: null; reason: 'unknown' | 'same_business' }

export async function lookUpReferralCode(deps: Deps, raw: string, abn: string | null): Promise<ReferralLookup> {
  const code = normaliseReferralCode(raw)
  const owner = code ? await findCodeOwner(deps.db.app, code, abn) : undefined
  if (!owner) return { code, referrerId: null, reason: 'unknown' }
  if (owner.same_business) return { code, referrerId: null, reason: 'same_business' }
  return { code, referrerId: owner.company_id }
}

/** Sign-up, in the new company's transaction: its own code, and the referral when a known code was given. */
export async function recordSignUpReferral(deps: Deps, tx: postgres.TransactionSql, companyId: string, given: ReferralLookup | null, now: Date) {
  const own = await ownReferralCode(tx, companyId, now)
  if (given?.referrerId) {
    await insertReferral(tx, { companyId, referrerId: given.referrerId, code: given.code, rewardCents: deps.config.REFERRAL_CREDIT_CENTS, now })
  }
  return { code: own, link: referralLink(deps.urls, own) }
}

/** The referral page (/r/<code>): whether the code is one, read as a person would type it. */
export async function referralCodeExists(deps: Deps, raw: string): Promise<string | null> {
  const code = normaliseReferralCode(raw)
  if (!/^[A-Z0-9]{6,16}$/.test(code)) return null
  return (await findCodeOwner(deps.db.app, code, null)) ? code : null
}
