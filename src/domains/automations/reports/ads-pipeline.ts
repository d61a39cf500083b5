// workflows.search_ads_pipeline: leads by source and campaign over a lookback window, how far they
// got (quoted, won jobs, invoiced), and what the ads cost per lead and per won job, from the ad
// spend the company records (ad_spend: POST|GET /ad-spend or workflows.record_ad_spend / list_ad_spend). Leads have no campaign
// field (the spec's Lead): a lead's source is read as "<source>:<campaign>" (google_ads:spring-promo),
// both lower-cased; a source without a colon has no campaign. All money is integer cents in SQL;
// dollars only in the answer.
import Type, { type Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { validationError } from '../../../core/errors.js'
import { Dollars } from '../../../core/schema-helpers.js'
import { centsToDollars, parseDollars } from '../../../core/money.js'
import { addDays } from '../../../core/period.js'
import { localDate, startOfLocalDay } from '../../../core/zoned-time.js'
import { withTenant } from '../../../db/sql.js'
import { findTimeZone, insertAdSpend, listAdSpendRows, listPipelineGroups, type GroupRow, type SpendRow } from './queries.js'
import { DateOnly } from '../../shared-schema.js'

// Ad spend is recorded as paid and revenue as invoiced, both incl. GST.
const Money = (description: string) => Dollars('incl', { description })
const NullableMoney = (description: string) => Type.Union([Dollars('incl'), Type.Null()], { description: `${description} (AUD dollars, incl. GST)` })

export const RecordAdSpendInput = Type.Object(
  {
    source: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^:]+$', description: 'The lead source the ads bring, as leads record it before any colon (google_ads, facebook_ads, ...)' }),
    campaign: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The campaign, as leads record it after the colon (google_ads:spring-promo); omit for spend on the source as a whole' })),
    period_start: DateOnly('First day the spend covers (YYYY-MM-DD)'),
    period_end: DateOnly('Last day the spend covers, inclusive (YYYY-MM-DD)'),
    amount: Dollars('incl', { minimum: 0, maximum: 1_000_000_000, description: 'Spend over the period, as paid (at most two decimals)' }),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)

const AdSpendRecord = Type.Object({
  id: Type.String(), source: Type.String(), campaign: Type.Union([Type.String(), Type.Null()]),
  periodStart: Type.String(), periodEnd: Type.String(), amount: Money('Spend over the period, as paid'), note: Type.Union([Type.String(), Type.Null()]), createdAt: Type.String(),
})
export const AdSpendResponse = Type.Object({ adSpend: AdSpendRecord })

export const ListAdSpendInput = Type.Object(
  {
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    from: Type.Optional(DateOnly('Only spend whose period ends on or after this day')),
    to: Type.Optional(DateOnly('Only spend whose period starts on or before this day')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
)
export const AdSpendListResponse = Type.Object({ adSpend: Type.Array(AdSpendRecord), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() })

const Figures = {
  leads: Type.Integer(),
  quoted: Type.Integer({ description: 'Leads with at least one quote sent' }),
  wonJobs: Type.Integer({ description: 'Jobs of these leads that went ahead (Scheduled, In Progress or Completed)' }),
  revenue: Money('Invoiced to these leads (issued, not void, net of credits)'),
  adSpend: NullableMoney('Ad spend for the window (recorded periods counted by the days they share with it); null when none is recorded'),
  costPerLead: NullableMoney('adSpend / leads; null without spend or leads'),
  costPerWonJob: NullableMoney('adSpend / wonJobs; null without spend or won jobs'),
  returnOnAdSpend: Type.Union([Type.Number(), Type.Null()], { description: 'revenue / adSpend (2 decimals); null without spend' }),
}
export const AdsPipelineOutput = Type.Object({
  period: Type.Object({ from: Type.String(), to: Type.String(), days: Type.Integer() }, { description: "Local dates in the company's time zone, inclusive" }),
  rows: Type.Array(Type.Object({ source: Type.String(), campaign: Type.Union([Type.String(), Type.Null()]), ...Figures }), { description: 'One per source and campaign, most leads first' }),
  totals: Type.Object({ ...Figures, adSpendFrom: Type.Union([Type.Literal('recorded'), Type.Literal('given'), Type.Literal('none')], { description: 'given: ad_spend from the call; recorded: the sum of the rows' }) }),
})

const presentSpend = (r: SpendRow) => ({
  id: r.id, source: r.source, campaign: r.campaign, periodStart: r.period_start, periodEnd: r.period_end,
  amount: centsToDollars(Number(r.amount_cents)), note: r.note, createdAt: r.created_at.toISOString(),
})

export async function recordAdSpend(deps: Deps, principal: Principal, input: Static<typeof RecordAdSpendInput>) {
  if (input.period_end < input.period_start) throw validationError(['period_end: must be on or after period_start'])
  const cents = parseDollars(input.amount, 'amount')
  const source = input.source.trim().toLowerCase()
  const campaign = input.campaign?.trim().toLowerCase() || null
  if (!source) throw validationError(['source: must not be blank'])
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const row = await insertAdSpend(tx, {
      companyId: principal.companyId, source, campaign, periodStart: input.period_start, periodEnd: input.period_end,
      amountCents: cents, note: input.note ?? null, now: deps.clock.now(),
    })
    return { adSpend: presentSpend(row) }
  })
}

export async function listAdSpend(deps: Deps, principal: Principal, input: Static<typeof ListAdSpendInput>) {
  const limit = input.limit ?? 50
  const offset = input.offset ?? 0
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const { rows, total } = await listAdSpendRows(tx, { source: input.source?.trim().toLowerCase(), from: input.from, to: input.to }, limit, offset)
    return { adSpend: rows.map(presentSpend), total, limit, offset }
  })
}


/** Half-up integer division of non-negative cents. */
const perUnit = (cents: number, units: number) => (units > 0 ? Math.floor((cents * 2 + units) / (units * 2)) : null)

const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(cents))

function figures(g: { leads: number; quoted: number; wonJobs: number; revenueCents: number; spendCents: number | null }) {
  const spend = g.spendCents
  return {
    leads: g.leads, quoted: g.quoted, wonJobs: g.wonJobs, revenue: centsToDollars(g.revenueCents),
    adSpend: dollars(spend),
    costPerLead: spend === null ? null : dollars(perUnit(spend, g.leads)),
    costPerWonJob: spend === null ? null : dollars(perUnit(spend, g.wonJobs)),
    returnOnAdSpend: spend === null || spend === 0 ? null : Math.round((g.revenueCents * 100) / spend) / 100,
  }
}

export async function adsPipeline(deps: Deps, principal: Principal, input: { days?: number; campaign?: string; ad_spend?: number }) {
  const days = input.days ?? 30
  const given = input.ad_spend === undefined ? null : parseDollars(input.ad_spend, 'ad_spend')
  const wanted = input.campaign?.trim().toLowerCase() || null
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const company = await findTimeZone(tx)
    const to = localDate(deps.clock.now(), company!.time_zone)
    const from = addDays(to, -(days - 1))
    const fromInstant = startOfLocalDay(from, company!.time_zone)
    const toInstant = startOfLocalDay(addDays(to, 1), company!.time_zone)
    const groups = await listPipelineGroups(tx, fromInstant, toInstant, from, to)
    const rows = groups.filter((g) => wanted === null || g.campaign === wanted || g.source === wanted || `${g.source}:${g.campaign}` === wanted)
    const sum = (f: (g: GroupRow) => number) => rows.reduce((acc, g) => acc + f(g), 0)
    const recorded = rows.some((g) => g.spend_cents !== null) ? sum((g) => Number(g.spend_cents ?? 0)) : null
    const spendCents = given ?? recorded
    return {
      period: { from, to, days },
      rows: rows.map((g) => ({
        source: g.source, campaign: g.campaign,
        ...figures({ leads: g.leads, quoted: g.quoted, wonJobs: g.won_jobs, revenueCents: Number(g.revenue_cents), spendCents: g.spend_cents === null ? null : Number(g.spend_cents) }),
      })),
      totals: {
        ...figures({ leads: sum((g) => g.leads), quoted: sum((g) => g.quoted), wonJobs: sum((g) => g.won_jobs), revenueCents: sum((g) => Number(g.revenue_cents)), spendCents }),
        adSpendFrom: given !== null ? 'given' as const : recorded !== null ? 'recorded' as const : 'none' as const,
      },
    }
  })
}
