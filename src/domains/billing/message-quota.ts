// Monthly SMS, email and LLM-call limits, enforced: each send is counted atomically against the
// effective plan's limit before the provider is called (reserve_usage in migration 007), inside the
// caller's transaction, so the count is undone if the caller's change rolls back.
import type postgres from 'postgres'
import { AppError } from '../../core/errors.js'
import { secondsUntil, usagePeriod } from '../../core/period.js'
import { activePlans, type PlanRow } from './plans.js'
import { releaseUsage, reserveUsage } from './queries.js'

export type MeteredMessage = 'sms' | 'emails' | 'llm_calls'

/** The monthly counter a message channel counts toward. */
export const metricOf = (channel: 'sms' | 'email'): MeteredMessage => (channel === 'sms' ? 'sms' : 'emails')

const LIMIT_COLUMN: Record<MeteredMessage, keyof PlanRow> = { sms: 'sms_per_month', emails: 'emails_per_month', llm_calls: 'llm_calls_per_month' }
const LABEL: Record<MeteredMessage, string> = { sms: 'SMS', emails: 'email', llm_calls: 'LLM-call' }

export interface QuotaRefusal {
  metric: MeteredMessage
  limit: number
  used: number
  planSlug: string
  resetsAt: Date
  retryAfterSeconds: number
  /** The cheapest active plan with a higher limit, or null on the top plan. */
  upgradePlan: string | null
}

/** Counts `count` messages; returns null when counted, or why not (nothing is counted then). */
export async function reserveMessages(
  tx: postgres.TransactionSql,
  request: { companyId: string; metric: MeteredMessage; count: number; now: Date },
): Promise<QuotaRefusal | null> {
  if (request.count <= 0) return null
  const period = usagePeriod(request.now)
  const row = await reserveUsage(tx, { companyId: request.companyId, periodKey: period.key, metric: request.metric, count: request.count, now: request.now })
  if (row.allowed) return null
  // On the same connection: asking the pool for another while this transaction holds one could starve it.
  const plans = await activePlans(tx)
  const upgrade = plans.find((p) => Number(p[LIMIT_COLUMN[request.metric]]) > row.usage_limit)
  return {
    metric: request.metric, limit: row.usage_limit, used: row.used, planSlug: row.effective_plan_slug,
    resetsAt: period.end, retryAfterSeconds: secondsUntil(period.end, request.now), upgradePlan: upgrade?.slug ?? null,
  }
}

/** Gives back counted messages that were never handed over (a provider refused them for good). */
export async function releaseMessages(tx: postgres.TransactionSql, request: { metric: MeteredMessage; count: number; now: Date }): Promise<void> {
  await releaseUsage(tx, { periodKey: usagePeriod(request.now).key, metric: request.metric, count: request.count })
}

export function describeRefusal(r: QuotaRefusal): string {
  const raise = r.upgradePlan
    ? `The ${r.upgradePlan} plan raises it: POST /api/v1/billing/checkout {"plan_slug": "${r.upgradePlan}"}.`
    : 'This is the highest plan; contact support for a higher limit.'
  return `Monthly ${LABEL[r.metric]} limit reached: ${r.used} of ${r.limit} on the ${r.planSlug} plan. ` +
    `It resets at ${r.resetsAt.toISOString()}. ${raise}`
}

/** The caller's error: 429 rate_limited (REST) or an isError tool result (MCP). */
export function quotaExceeded(r: QuotaRefusal, outcome = 'Nothing was sent.'): AppError {
  return new AppError('rate_limited', `${outcome} ${describeRefusal(r)}`, {
    retry_after_seconds: r.retryAfterSeconds,
    limit: { metric: r.metric, used: r.used, limit: r.limit, plan: r.planSlug, resets_at: r.resetsAt.toISOString(), upgrade_plan: r.upgradePlan },
  }, { 'Retry-After': String(r.retryAfterSeconds) })
}

/** Counts every message of a send at once (SMS and email separately), or throws quotaExceeded. */
export async function reserveOrRefuse(
  tx: postgres.TransactionSql,
  companyId: string,
  messages: { channel: 'sms' | 'email' }[],
  now: Date,
): Promise<void> {
  for (const channel of ['sms', 'email'] as const) {
    const refusal = await reserveMessages(tx, { companyId, metric: metricOf(channel), count: messages.filter((m) => m.channel === channel).length, now })
    if (refusal) throw quotaExceeded(refusal)
  }
}
