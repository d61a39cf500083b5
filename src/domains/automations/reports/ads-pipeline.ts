// workflows.search_ads_pipeline: leads by source and campaign over a lookback window, how far they
// got (quoted, won jobs, invoiced), and what the ads cost per lead and per won job, from the ad
// spend the company records (ad_spend, REST only: POST|GET /ad-spend). Leads have no campaign
// field (the spec's Lead): a lead's source is read as "<source>:<campaign>" (google_ads:spring-promo),
// both lower-cased; a source without a colon has no campaign. All money is integer cents in SQL;
// dollars only in the answer.
import Type, { type Static } from 'typebox'
import type postgres from 'postgres'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { validationError } from '../../../core/errors.js'
import { centsToDollars, parseDollars } from '../../../core/money.js'
import { addDays } from '../../../core/period.js'
import { localDate, startOfLocalDay } from '../../../core/zoned-time.js'
import { withTenant } from '../../../db/sql.js'

const DateOnly = (description: string) => Type.String({ format: 'date', description })
const Money = (description: string) => Type.Number({ description })
const NullableMoney = (description: string) => Type.Union([Type.Number(), Type.Null()], { description })

export const RecordAdSpendInput = Type.Object(
  {
    source: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^:]+$', description: 'The lead source the ads bring, as leads record it before any colon (google_ads, facebook_ads, ...)' }),
    campaign: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The campaign, as leads record it after the colon (google_ads:spring-promo); omit for spend on the source as a whole' })),
    period_start: DateOnly('First day the spend covers (YYYY-MM-DD)'),
    period_end: DateOnly('Last day the spend covers, inclusive (YYYY-MM-DD)'),
    amount: Type.Number({ minimum: 0, maximum: 1_000_000_000, description: 'Spend over the period in AUD dollars (at most two decimals)' }),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)

const AdSpendRecord = Type.Object({
  id: Type.String(), source: Type.String(), campaign: Type.Union([Type.String(), Type.Null()]),
  periodStart: Type.String(), periodEnd: Type.String(), amount: Money('AUD dollars'), note: Type.Union([Type.String(), Type.Null()]), createdAt: Type.String(),
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
  revenue: Money('Invoiced to these leads (issued, not void, net of credits), AUD incl. GST'),
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

interface SpendRow { id: string; source: string; campaign: string | null; period_start: string; period_end: string; amount_cents: string; note: string | null; created_at: Date }
const presentSpend = (r: SpendRow) => ({
  id: r.id, source: r.source, campaign: r.campaign, periodStart: r.period_start, periodEnd: r.period_end,
  amount: centsToDollars(Number(r.amount_cents)), note: r.note, createdAt: r.created_at.toISOString(),
})
const spendColumns = (tx: postgres.TransactionSql) =>
  tx`id::text, source, campaign, to_char(period_start, 'YYYY-MM-DD') as period_start, to_char(period_end, 'YYYY-MM-DD') as period_end, amount_cents, note, created_at`

export async function recordAdSpend(deps: Deps, principal: Principal, input: Static<typeof RecordAdSpendInput>) {
  if (input.period_end < input.period_start) throw validationError(['period_end: must be on or after period_start'])
  const cents = parseDollars(input.amount, 'amount')
  const source = input.source.trim().toLowerCase()
  const campaign = input.campaign?.trim().toLowerCase() || null
  if (!source) throw validationError(['source: must not be blank'])
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const [row] = await tx<SpendRow[]>`
      insert into ad_spend (company_id, source, campaign, period_start, period_end, amount_cents, note, created_at)
      values (${principal.companyId}, ${source}, ${campaign}, ${input.period_start}, ${input.period_end}, ${cents}, ${input.note ?? null}, ${deps.clock.now()})
      returning ${spendColumns(tx)}`
    return { adSpend: presentSpend(row!) }
  })
}

export async function listAdSpend(deps: Deps, principal: Principal, input: Static<typeof ListAdSpendInput>) {
  const limit = input.limit ?? 50
  const offset = input.offset ?? 0
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const where = tx`true
      ${input.source ? tx`and source = ${input.source.trim().toLowerCase()}` : tx``}
      ${input.from ? tx`and period_end >= ${input.from}::date` : tx``}
      ${input.to ? tx`and period_start <= ${input.to}::date` : tx``}`
    const rows = await tx<SpendRow[]>`select ${spendColumns(tx)} from ad_spend where ${where} order by period_start desc, created_at desc, id limit ${limit} offset ${offset}`
    const [count] = await tx<{ n: number }[]>`select count(*)::int as n from ad_spend where ${where}`
    return { adSpend: rows.map(presentSpend), total: count!.n, limit, offset }
  })
}

interface GroupRow { source: string; campaign: string | null; leads: number; quoted: number; won_jobs: number; revenue_cents: string; spend_cents: string | null }

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
    const [company] = await tx<{ time_zone: string }[]>`select time_zone from companies`
    const to = localDate(deps.clock.now(), company!.time_zone)
    const from = addDays(to, -(days - 1))
    const fromInstant = startOfLocalDay(from, company!.time_zone)
    const toInstant = startOfLocalDay(addDays(to, 1), company!.time_zone)
    const groups = await tx<GroupRow[]>`
      with l as (
        select id,
               coalesce(nullif(lower(trim(split_part(source, ':', 1))), ''), 'unknown') as source,
               case when strpos(source, ':') > 0 then nullif(lower(trim(substr(source, strpos(source, ':') + 1))), '') end as campaign
        from leads where created_at >= ${fromInstant} and created_at < ${toInstant}
      ), per_lead as (
        select l.source, l.campaign,
               exists (select 1 from quotes q where q.lead_id = l.id and q.sent_count > 0) as quoted,
               (select count(*) from jobs j where j.lead_id = l.id and j.status in ('Scheduled', 'In Progress', 'Completed')) as won_jobs,
               (select coalesce(sum(i.total_cents - i.amount_credited_cents), 0) from invoices i
                 where i.lead_id = l.id and i.kind <> 'credit_note' and i.status not in ('Draft', 'Void')) as revenue_cents
        from l
      ), lead_groups as (
        select source, campaign, count(*)::int as leads, count(*) filter (where quoted)::int as quoted,
               sum(won_jobs)::int as won_jobs, sum(revenue_cents)::bigint as revenue_cents
        from per_lead group by source, campaign
      ), spend as (
        -- Each record counts for the days it shares with the window, in proportion (half-up cents).
        select source, campaign,
               sum((amount_cents * (least(period_end, ${to}::date) - greatest(period_start, ${from}::date) + 1) * 2 + (period_end - period_start + 1))
                   / (2 * (period_end - period_start + 1)))::bigint as spend_cents
        from ad_spend where period_start <= ${to}::date and period_end >= ${from}::date
        group by source, campaign
      )
      select coalesce(g.source, s.source) as source, coalesce(g.campaign, s.campaign) as campaign,
             coalesce(g.leads, 0) as leads, coalesce(g.quoted, 0) as quoted, coalesce(g.won_jobs, 0) as won_jobs,
             coalesce(g.revenue_cents, 0) as revenue_cents, s.spend_cents
      from lead_groups g full join spend s on s.source = g.source and s.campaign is not distinct from g.campaign
      order by 3 desc, 1, 2 nulls first`
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
