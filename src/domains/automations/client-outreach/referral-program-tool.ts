// workflows.referral_program: a referral code for each past client with a job completed in the last
// `days` days (one code per client; an existing code is returned as it is, with its own reward),
// ready to share, with how many leads each code has brought (leads.create with source
// 'referral:<CODE>'). Nothing is sent: the offer message after a 5-star job is the automation's.
import { afterReferralProgram } from '../engine/next-steps.js'
import Type, { type Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { WRITE } from '../../../core/annotations.js'
import { centsToDollars, parseDollars } from '../../../core/money.js'
import { defineOperation } from '../../../core/operation.js'
import { Dollars, StringEnum } from '../../../core/schema-helpers.js'
import { withTenant } from '../../../db/sql.js'
import { closed } from '../../shared-schema.js'
import { REFERRAL_REWARD_TYPES } from './automation.js'
import { codeForClient, DISCLOSURE, REFERRAL_SOURCE_PREFIX, rewardText, type RewardType } from './referral-program.js'
import { automationChoice } from '../engine/settings.js'
import { referralProgramAutomation } from './automation.js'
import { countReferredLeads, findBusinessName, listRecentClients } from './queries.js'

const DAY_MS = 86_400_000
const LIMIT = 200

const ReferralProgramOutput = Type.Object({
  codes: Type.Array(Type.Object({
    lead_id: Type.String({ description: 'The referring client' }),
    client_name: Type.String(),
    code: Type.String({ description: 'Their personal code; a new lead created with source referral:<CODE> is tracked to it' }),
    reward_type: StringEnum(REFERRAL_REWARD_TYPES),
    reward_amount: Dollars('none', { description: 'Reward value' }),
    share_text: Type.String({ description: 'Ready-to-share wording, with the reward disclosed' }),
    created: Type.Boolean({ description: 'Made now (false: the client already had this code)' }),
    referred_leads: Type.Integer({ minimum: 0, description: 'Leads that came with this code so far' }),
  }), { description: 'One per client, oldest completed job first, at most 200' }),
  disclosure: Type.String({ description: 'Referral rewards are incentives: say so wherever the code is shared' }),
  note: Type.String(),
})

export async function referralCodes(deps: Deps, principal: Principal, input: { reward_type?: RewardType; reward_amount?: number; days?: number }): Promise<Static<typeof ReferralProgramOutput>> {
  const rewardCents = input.reward_amount === undefined ? undefined : parseDollars(input.reward_amount, 'reward_amount')
  const since = new Date(deps.clock.now().getTime() - (input.days ?? 365) * DAY_MS)
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const s = (await automationChoice(tx, referralProgramAutomation)).settings
    const reward = { type: input.reward_type ?? s.reward_type, cents: rewardCents ?? Math.round(s.reward_amount * 100) }
    const businessName = await findBusinessName(tx)
    const clients = await listRecentClients(tx, since, LIMIT)
    const codes: Static<typeof ReferralProgramOutput>['codes'] = []
    for (const client of clients) {
      const { row, created } = await codeForClient(tx, principal.companyId, client.lead_id, reward, null, now)
      const referred = await countReferredLeads(tx, row.id)
      const amount = Number(row.reward_cents)
      codes.push({
        lead_id: client.lead_id, client_name: client.name, code: row.code, reward_type: row.reward_type, reward_amount: centsToDollars(amount),
        share_text: `Know someone who needs ${businessName}? Give them my code ${row.code}. (I get ${rewardText(row.reward_type, amount)} if they book: a referral reward from ${businessName}.)`,
        created, referred_leads: referred,
      })
    }
    return {
      codes, disclosure: DISCLOSURE,
      note: codes.length
        ? `Record a referred lead with leads.create source "${REFERRAL_SOURCE_PREFIX}<CODE>". Nothing was sent; the referral_program automation offers codes after 5-star jobs.`
        : 'No client had a job completed in that period, so no code was made.',
    }
  })
}

export const referralProgramOperation = defineOperation({
  name: 'workflows.referral_program',
  domain: 'workflows',
  title: 'Client referral program',
  description:
    "Set up client referral offers: picks past clients with completed jobs and creates for each a referral code with the reward, ready to share (a client keeps one code). New leads created with source referral:<CODE> are tracked to the code. Rewards for referrals are incentives and must be disclosed. Nothing is sent; turn on the referral_program automation to offer the code after each 5-star job.",
  input: Type.Object(
    {
      reward_type: Type.Optional(StringEnum(REFERRAL_REWARD_TYPES, { description: "What the referrer gets; default the automation's setting (discount)" })),
      reward_amount: Type.Optional(Dollars('none', { minimum: 0, maximum: 10_000, description: "Reward value; default the automation's setting ($50)" })),
      days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 365, description: 'Clients with jobs completed in the last this many days (default 365)' })),
    },
    closed,
  ),
  output: ReferralProgramOutput,
  access: { permission: 'write' },
  cost: 'write',
  annotations: WRITE,
  nextSteps: afterReferralProgram,
  run: (ctx, input) => referralCodes(ctx.deps, ctx.principal!, input),
})
