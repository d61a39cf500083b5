// workflows.follow_up_quote: with quoteId, start (or report) the follow-up run of that quote's
// current send; without, scan the pending quotes (Sent or Viewed, not expired) and start the runs
// that are missing. Quote sends start their run themselves (quotes.send); this is for quotes sent
// while follow-ups were off, and for asking where a quote's follow-ups stand. A dry run does all of
// it in a transaction it rolls back, answering with the first follow-up each new run would send.
import { afterFollowUpQuote } from '../engine/next-steps.js'
import type postgres from 'postgres'
import Type, { type Static } from 'typebox'
import type { Deps } from '../../../core/deps.js'
import { AppError, notFound } from '../../../core/errors.js'
import { defineOperation } from '../../../core/operation.js'
import { SEND } from '../../../core/annotations.js'
import { StringEnum } from '../../../core/schema-helpers.js'
import { withTenantThenStart, type StartAfterCommit } from '../../../temporal/outbox.js'
import { RollBack, rolledBack } from '../../../core/dry-run.js'
import type { QueuedMessage } from '../../../../workflows/messages.js'
import { messageViews } from '../../comms/preview.js'
import { closed, DryRun, Id, RunMessageFields } from '../../shared-schema.js'
import { automationChoice } from '../engine/settings.js'
import { previewQuoteFollowUp, startQuoteFollowUp, type ChannelChoice, type QuoteFollowUpInput } from './follow-up-quote.js'
import { followUpQuoteAutomation } from './automation.js'
import { companyToday } from '../../../core/company-time.js'
import { quoteFollowUpWorkflowId } from './workflows/quote-follow-up.js'
import { deleteFailedRun, findFollowUpRun, findQuoteStatus, listPendingQuotes, type PendingQuote } from './queries.js'

/** How many pending quotes one scan handles (oldest sends first); call again for the rest. */
const SCAN_LIMIT = 200

const Started = Type.Object({
  quote_id: Type.String(), quote_number: Type.String(), workflow_id: Type.String(),
  follow_ups_at: Type.Array(Type.String({ description: 'ISO time' }), { description: 'When each follow-up is due (past ones: only the latest due is sent)' }),
})
const Running = Type.Object({
  quote_id: Type.String(), quote_number: Type.String(), workflow_id: Type.String(),
  status: Type.String({ description: 'running, completed, stopped or failed' }), outcome: Type.Union([Type.String(), Type.Null()]),
})
const Skipped = Type.Object({ quote_id: Type.String(), quote_number: Type.String(), reason: Type.String() })

const FollowUpQuoteOutput = Type.Object({
  started: Type.Array(Started, { description: 'Follow-up runs started now (dry run: that would start)' }),
  existing: Type.Array(Running, { description: 'Quotes whose current send already has a run (its status and outcome)' }),
  skipped: Type.Array(Skipped, { description: 'Quotes not followed up, and why' }),
  ...RunMessageFields,
})
type Out = Omit<Static<typeof FollowUpQuoteOutput>, keyof typeof RunMessageFields>

async function ensureFollowUp(
  deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit, companyId: string, q: PendingQuote,
  overrides: { channel?: ChannelChoice; message?: string }, out: Out,
): Promise<QuoteFollowUpInput | null> {
  const workflowId = quoteFollowUpWorkflowId({ companyId, quoteId: q.id, sendNumber: q.sent_count })
  const run = await findFollowUpRun(tx, workflowId)
  if (run && run.status !== 'failed') {
    out.existing.push({ quote_id: q.id, quote_number: q.quote_number, workflow_id: workflowId, status: run.status, outcome: run.outcome })
    return null
  }
  if (run) await deleteFailedRun(tx, workflowId) // started again below
  const sentAt = q.sent_count > 1 && q.last_sent_at ? q.last_sent_at : q.sent_at
  const started = await startQuoteFollowUp(deps, tx, start, { companyId, quoteId: q.id, sendNumber: q.sent_count, sentAt, validUntil: q.valid_until, timeZone: q.time_zone }, overrides)
  if (!started) return null
  out.started.push({ quote_id: q.id, quote_number: q.quote_number, workflow_id: started.workflowId, follow_ups_at: started.followUpsAt })
  return started.input
}

export async function followUpQuotes(deps: Deps, companyId: string, input: { quoteId?: string; channel?: ChannelChoice; message?: string; dry_run?: boolean }) {
  return rolledBack(() => withTenantThenStart(deps, companyId, async (tx, start) => {
    const today = await companyToday(tx, deps.clock.now())
    const out: Out = { started: [], existing: [], skipped: [] }
    const answer = async (runs: QuoteFollowUpInput[]) => {
      if (!input.dry_run) return { ...out, dry_run: false, messages: [] }
      // The messages come from the quotes as they are, before the rollback undoes the runs' records.
      const messages: QueuedMessage[] = []
      for (const run of runs) messages.push(...(await previewQuoteFollowUp(deps, tx, run)))
      throw new RollBack({ ...out, dry_run: true, messages: await messageViews(tx, messages) })
    }
    let quotes: PendingQuote[]
    if (input.quoteId) {
      const q = await findQuoteStatus(tx, input.quoteId)
      if (!q) throw notFound('Quote')
      const status = (q.status === 'Sent' || q.status === 'Viewed') && q.valid_until < today ? 'Expired' : q.status
      if (status !== 'Sent' && status !== 'Viewed') {
        throw new AppError('conflict', `Quote ${q.quote_number} is ${status}; only Sent or Viewed quotes are followed up.${status === 'Draft' ? ' Send it first (quotes.send).' : ''}`, { current_status: status })
      }
      quotes = await listPendingQuotes(tx, today, SCAN_LIMIT, input.quoteId)
    } else quotes = await listPendingQuotes(tx, today, SCAN_LIMIT)
    if (!(await automationChoice(tx, followUpQuoteAutomation)).enabled) {
      out.skipped = quotes.map((q) => ({ quote_id: q.id, quote_number: q.quote_number, reason: 'quote follow-ups are turned off for this company (workflows.toggle)' }))
      return answer([])
    }
    const runs: QuoteFollowUpInput[] = []
    for (const q of quotes) {
      const run = await ensureFollowUp(deps, tx, start, companyId, q, { channel: input.channel, message: input.message }, out)
      if (run) runs.push(run)
    }
    return answer(runs)
  }))
}

export const followUpQuoteOperation = defineOperation({
  name: 'workflows.follow_up_quote',
  domain: 'workflows',
  title: 'Follow up quotes',
  description:
    "Start quote follow-ups where they are missing: with quoteId, that Sent or Viewed quote; otherwise every pending one (up to 200 a call, oldest first); runs that exist are reported. Each send gets at most 3 follow-ups at the company's delays (default 2, 5 and 10 days), stopping once the quote is accepted, declined, expired or sent again. quotes.send starts them by itself (automation follow_up_quote, default on). Follow-ups are marketing messages: they carry the opt-out, and a client who opted out gets none.",
  input: Type.Object(
    {
      quoteId: Type.Optional(Id('Quote to follow up (Sent or Viewed); omit to scan all pending quotes')),
      channel: Type.Optional(StringEnum(['sms', 'email', 'both'] as const, { description: "Default: the company's setting, else SMS to an Australian mobile, otherwise email" })),
      message: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Custom wording; the quote link is appended' })),
      dry_run: DryRun,
    },
    closed,
  ),
  output: FollowUpQuoteOutput,
  access: { scope: 'quotes', permission: 'write' },
  cost: 'write',
  annotations: { ...SEND, idempotentHint: true },
  nextSteps: afterFollowUpQuote,
  run: (ctx, input) => followUpQuotes(ctx.deps, ctx.principal!.companyId, input),
})
