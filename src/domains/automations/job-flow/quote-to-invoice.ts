// workflows.quote_to_invoice: an Accepted quote carried through to payment. The run
// (workflows/quote-to-invoice.ts, id quote-to-invoice:<company>:<quote>) makes the quote's job when
// it has none (jobs.create's path), waits durably for that job to be Completed (a nudge from the
// reaction to job.changed, quote-to-invoice-nudge.ts, and a periodic recheck; the database decides), then
// invoices it and sends the payment link (invoice-job.ts, as workflows.trigger_invoice does), after
// which the payment chase runs. A Cancelled job stops it. Each step is recorded in automation_runs.
// A dry run makes the same checks and starts nothing; when the quote's job is Completed already it
// shows the invoice and first send the run would make at once.
import { afterQuoteToInvoice } from '../engine/next-steps.js'
import Type from 'typebox'
import type { Deps } from '../../../core/deps.js'
import { AppError, notFound } from '../../../core/errors.js'
import { defineOperation } from '../../../core/operation.js'
import { SEND } from '../../../core/annotations.js'
import { Nullable } from '../../../core/schema-helpers.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import { withTenantThenStart } from '../../../temporal/outbox.js'
import { quoteToInvoice, quoteToInvoiceWorkflowId, type QuoteJobStep, type QuoteToInvoiceInput, type QuoteToInvoiceResult, type QuoteToInvoiceActivities } from './workflows/quote-to-invoice.js'
import { createJob } from '../../jobs/service.js'
import { findQuote } from '../../quotes/queries.js'
import { closed, DryRun, Id, RunMessageFields } from '../../shared-schema.js'
import type { ChannelChoice } from '../../../../workflows/messages.js'
import { dryRunAnswer, previewInvoiceAndSend } from './invoice-job.js'
import { actingFor, assertId, orStopped } from './job-flow-common.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun } from '../engine/queries/runs.js'
import { quoteToInvoiceAutomation } from './automation.js'
import { companyToday } from '../../../core/company-time.js'
import { deleteFailedRun, findJobStatus, findQuoteJob, findRunStatusAndOutcome } from './queries.js'
import { findJobIdOfQuote } from '../../jobs/queries.js'

export const QUOTE_TO_INVOICE = quoteToInvoiceAutomation.key

export type { QuoteJobStep, QuoteToInvoiceInput, QuoteToInvoiceResult }

export const quoteToInvoiceDefinition = defineWorkflow<QuoteToInvoiceActivities>()({
  workflow: quoteToInvoice,
  id: quoteToInvoiceWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  description: "Carries one Accepted quote to payment: its job (made if missing), then, once the job is Completed, the invoice and its payment link; stops if the job is Cancelled. One run per quote; a failed run may be started again.",
})


/** The quote's job: the one it has, or a new one made through jobs.create's path. */
export async function ensureQuoteJob(deps: Deps, input: { companyId: string; quoteId: string }): Promise<QuoteJobStep> {
  const read = () => withTenant(deps.db, input.companyId, async (tx) => {
    const quote = await findQuote(tx, input.quoteId, await companyToday(tx, deps.clock.now()))
    const job = await findQuoteJob(tx, input.quoteId)
    return { quote, job }
  })
  const { quote, job } = await read()
  if (!quote) return { stop: 'quote not found', jobId: null, created: false, title: null }
  if (job) return { stop: null, jobId: job.id, created: false, title: job.title }
  if (quote.status !== 'Accepted') return { stop: `quote ${quote.quote_number} is ${quote.status}, not Accepted`, jobId: null, created: false, title: null }
  const made = await orStopped(() => createJob(deps, actingFor(input.companyId), { lead_id: quote.lead_id, quote_id: quote.id }))
  if (made.ok) return { stop: null, jobId: made.ok.job.id, created: true, title: made.ok.job.title }
  const again = await read() // another path made the job meanwhile (jobs_quote_unique)
  if (again.job) return { stop: null, jobId: again.job.id, created: false, title: again.job.title }
  return { stop: made.stop, jobId: null, created: false, title: null }
}

/** The job's status now (null: gone). */
export async function jobStatusNow(deps: Deps, input: { companyId: string; jobId: string }): Promise<{ status: string | null }> {
  const row = await withTenant(deps.db, input.companyId, (tx) => findJobStatus(tx, input.jobId))
  return { status: row?.status ?? null }
}

const QuoteToInvoiceOutput = Type.Object({
  workflow_id: Type.String({ description: 'Temporal workflow id (quote-to-invoice:<company>:<quote>); its steps show in workflows.list' }),
  started: Type.Boolean({ description: 'True when this call started the run; false when the quote has one already (its status reported), or on a dry run' }),
  status: Type.String({ description: 'running (waiting for the job to be Completed), completed, stopped or failed; a dry run that would start one: stopped' }),
  outcome: Nullable(Type.String()),
  job_id: Nullable(Type.String({ description: "The quote's job when it exists already; a new run makes it within seconds" })),
  ...RunMessageFields,
})

export const quoteToInvoiceOperation = defineOperation({
  name: 'workflows.quote_to_invoice',
  domain: 'workflows',
  title: 'Quote to invoice',
  description:
    "Carry an Accepted quote through to payment in one long-running workflow: makes its job if there is none, waits until the job is Completed (jobs.complete), then invoices it and sends the client the payment link (the invoice itself without a payment account); the payment chase follows. Use it to have completion invoice by itself; stops if the job is Cancelled. One run per quote: calling again reports the run.",
  input: Type.Object({ quote_id: Id('Accepted quote'), dry_run: DryRun }, closed),
  output: QuoteToInvoiceOutput,
  access: { scope: 'quotes', permission: 'write' },
  cost: 'write',
  // Open world: it sends the invoice or its payment link to the client.
  annotations: { ...SEND, idempotentHint: true },
  nextSteps: afterQuoteToInvoice,
  async run(ctx, input) {
    const companyId = ctx.principal!.companyId
    assertId(input.quote_id, 'Quote')
    const now = ctx.deps.clock.now()
    const workflowId = quoteToInvoiceWorkflowId({ companyId, quoteId: input.quote_id })
    const dryRun = input.dry_run ?? false
    type Decided = { answer: { workflow_id: string; started: boolean; status: string; outcome: string | null; job_id: string | null } } | { dryRun: { channel: ChannelChoice; job: { id: string; status: string } | null } }
    const decided = await withTenantThenStart(ctx.deps, companyId, async (tx, start): Promise<Decided> => {
      const quote = await findQuote(tx, input.quote_id, await companyToday(tx, now), { forUpdate: true })
      if (!quote) throw notFound('Quote')
      const jobId = await findJobIdOfQuote(tx, quote.id)
      const run = await findRunStatusAndOutcome(tx, workflowId)
      if (run && run.status !== 'failed') return { answer: { workflow_id: workflowId, started: false, status: run.status, outcome: run.outcome, job_id: jobId } }
      if (quote.status !== 'Accepted') {
        throw new AppError('conflict', `Quote ${quote.quote_number} is ${quote.status}; only an Accepted quote goes on to a job and an invoice. ${quote.status === 'Sent' || quote.status === 'Viewed' ? 'It becomes Accepted when the client accepts it on its page (or quotes.update status Accepted); then call again.' : quote.status === 'Draft' ? 'Send it first (quotes.send).' : 'Create a new quote.'}`, {
          current_status: quote.status, next_step: quote.status === 'Draft' ? 'quotes.send' : 'quotes.update',
        })
      }
      const choice = await automationChoice(tx, quoteToInvoiceAutomation)
      if (!choice.enabled) throw new AppError('conflict', 'Quote to invoice is turned off for this company; turn it on with workflows.toggle (workflow_id quote_to_invoice).')
      const channel = choice.settings.channel ?? 'both'
      if (dryRun) return { dryRun: { channel, job: jobId ? { id: jobId, status: (await findJobStatus(tx, jobId))!.status } : null } }
      if (run) await deleteFailedRun(tx, workflowId) // started again below
      await insertRun(tx, { companyId, automation: QUOTE_TO_INVOICE, workflowId, subjectType: 'quote', subjectId: quote.id }, now)
      await start(workflowStart(quoteToInvoiceDefinition, { companyId, quoteId: quote.id, channel, recheckMs: ctx.deps.config.AUTOMATION_DAY_MS }))
      return { answer: { workflow_id: workflowId, started: true, status: 'running', outcome: null, job_id: jobId } }
    })
    if ('answer' in decided) return { ...decided.answer, dry_run: dryRun, messages: [] }
    const { job, channel } = decided.dryRun
    const base = { workflow_id: workflowId, started: false, status: 'stopped', job_id: job?.id ?? null, dry_run: true }
    if (job?.status === 'Cancelled') return { ...base, messages: [], outcome: `Dry run: nothing was started. A real run would stop at once: job ${job.id} is Cancelled.` }
    if (job?.status !== 'Completed') {
      // Nothing goes to the client before the job is Completed: the messages are the invoice's, made then.
      const wait = job ? `wait for job ${job.id} (${job.status}) to be Completed` : 'make the quote\'s job and wait for it to be Completed'
      return { ...base, messages: [], outcome: `Dry run: nothing was started. A real run would ${wait} (jobs.complete), then invoice it and send the payment link; nothing is sent before then.` }
    }
    const preview = dryRunAnswer(await previewInvoiceAndSend(ctx.deps, companyId, job.id, channel))
    return { ...base, messages: preview.messages, outcome: `${preview.outcome} The job is Completed, so a real run does this at once.` }
  },
})
