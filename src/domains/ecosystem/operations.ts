import Type from 'typebox'
import { READ } from '../../core/annotations.js'
import { defineOperation } from '../../core/operation.js'
import { closed } from '../shared-schema.js'
import { afterReferralLink } from './next-steps.js'
import { getReferralLink } from './referrals.js'
import { ReferralLinkOutput } from './schema.js'

export const ecosystemOperations = [
  defineOperation({
    name: 'ecosystem.referral_link',
    domain: 'ecosystem',
    title: 'Referral link',
    description:
      "Get the company's referral code and link for inviting other trade businesses (used as referral_code at onboarding), with the sign-ups it has brought. Both wallets get credit once a referred business pays its first month. Free.",
    input: Type.Object({}, closed),
    output: ReferralLinkOutput,
    access: { permission: 'read' },
    cost: 'free',
    // Reads the code; the first call for a company older than codes makes it, the same on every call after.
    annotations: READ,
    rest: { method: 'GET', path: '/referral-link' },
    run: (ctx) => getReferralLink(ctx.deps, ctx.principal!),
    nextSteps: afterReferralLink,
  }),
]
