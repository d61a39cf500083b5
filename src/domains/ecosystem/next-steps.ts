// What follows the referral link (core/next-steps.ts): sharing it happens outside the service; the
// credit it earns shows in the wallet.
import type { NextStep } from '../../core/next-steps.js'

export function afterReferralLink(output: { rewarded: number }): NextStep[] {
  return [{ tool: 'wallet.balance', why: output.rewarded > 0 ? 'Referral credit is in the wallet (kind referral in wallet.history).' : 'Referral credit lands here once a referred business pays its first month.' }]
}
