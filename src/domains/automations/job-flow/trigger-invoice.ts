// workflows.trigger_invoice: a Completed job's final invoice, then its first send (the payment link
// when a payment account is active, else the invoice), after which the payment chase runs as for
// any sent invoice. A short workflow (workflows/trigger-invoice.ts) over the steps in
// invoice-job.ts. Once per job: a job that has its invoice already is reported, not invoiced again.
// A dry run makes the same checks, starts nothing, and shows the invoice and first send the run would make.
import { afterTriggerInvoice } from '../engine/next-steps.js'
import Type from 'typebox'
import { AppError, notFound } from '../../../core/errors.js'
import { defineOperation } from '../../../core/operation.js'
import { SEND } from '../../../core/annotations.js'
import { Nullable } from '../../../core/schema-helpers.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import { withTenantThenStart } from '../../../temporal/outbox.js'
import { triggerInvoice, triggerInvoiceWorkflowId, type TriggerInvoiceInput, type TriggerInvoiceResult, type TriggerInvoiceActivities } from './workflows/trigger-invoice.js'
import { closed, DryRun, Id, RunMessageFields } from '../../shared-schema.js'
import { dryRunAnswer, existingFinalInvoice, InvoiceSummarySchema, presentSummary, previewInvoiceAndSend } from './invoice-job.js'
import { assertId, awaitShortRun, nextRunNumber, RunStatus } from './job-flow-common.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun } from '../engine/queries/runs.js'
import { InvoiceFlowSettings, triggerInvoiceAutomation } from './automation.js'
import type { Static } from 'typebox'
import type { ChannelChoice } from '../../../../workflows/messages.js'
import { findRunningRun, liveFinalInvoiceExists, lockJobStatus } from './queries.js'

export const TRIGGER_INVOICE = triggerInvoiceAutomation.key

/** Its settings, defaults filled in: the type of its schema (automation.ts). */
export type InvoiceFlowSettingsValue = Static<typeof InvoiceFlowSettings>

export type { TriggerInvoiceInput, TriggerInvoiceResult }

export const triggerInvoiceDefinition = defineWorkflow<TriggerInvoiceActivities>()({
  workflow: triggerInvoice,
  id: triggerInvoiceWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: "Invoices one Completed job and sends the invoice's payment link (or the invoice) once. One run per job and request number; the job's live final invoice stops any further run.",
})

const TriggerInvoiceOutput = Type.Object({
  workflow_id: Nullable(Type.String({ description: 'Temporal workflow id; null when the job was invoiced already and nothing ran' })),
  status: RunStatus,
  outcome: Nullable(Type.String()),
  already_invoiced: Type.Boolean({ description: 'True when the job had its invoice already (reported, not invoiced again)' }),
  invoice: Nullable(InvoiceSummarySchema),
  sent: Nullable(Type.Object({
    purpose: Nullable(Type.String({ description: 'pay_link (online payment link) or invoice (no active payment account)' })),
    channels: Type.Array(Type.String()),
    skipped: Nullable(Type.String({ description: 'Why nothing was sent' })),
  })),
  ...RunMessageFields,
})

export const triggerInvoiceOperation = defineOperation({
  name: 'workflows.trigger_invoice',
  domain: 'workflows',
  title: 'Run the invoice workflow',
  description:
    "Invoice a Completed job and send it in one call (a short workflow): its final invoice, then the payment link (the invoice itself without a payment account) by SMS and email unless the automation's channel setting says otherwise; from that send the payment chase runs. Use it instead of invoicing.generate when the final invoice should go out at once. Once per job: a job with its invoice already is reported and nothing is sent; a job not Completed is refused (jobs.complete first).",
  input: Type.Object({ job_id: Id('Completed job to invoice'), dry_run: DryRun }, closed),
  output: TriggerInvoiceOutput,
  access: { scope: 'jobs', permission: 'write' },
  cost: 'write',
  // Open world: it sends the invoice or its payment link to the client.
  annotations: { ...SEND, idempotentHint: true },
  nextSteps: afterTriggerInvoice,
  async run(ctx, input) {
    const companyId = ctx.principal!.companyId
    assertId(input.job_id, 'Job')
    const now = ctx.deps.clock.now()
    // What the transaction decided: the run (started, or running already), none (invoiced already), or a dry run's channel.
    type Decided = { workflowId: string | null } | { dryRunChannel: ChannelChoice }
    const started = await withTenantThenStart(ctx.deps, companyId, async (tx, start): Promise<Decided> => {
      const job = await lockJobStatus(tx, input.job_id)
      if (!job) throw notFound('Job')
      if (job.status !== 'Completed') {
        throw new AppError('conflict', `The job is ${job.status}; only a Completed job is invoiced. ${job.status === 'Cancelled' ? 'A Cancelled job is not invoiced.' : `Complete it first with jobs.complete (job_id ${input.job_id}), then call workflows.trigger_invoice again.`}`, {
          current_status: job.status, ...(job.status === 'Cancelled' ? {} : { next_step: 'jobs.complete' }),
        })
      }
      const running = await findRunningRun(tx, TRIGGER_INVOICE, input.job_id)
      if (running) return { workflowId: running.workflow_id }
      if (await liveFinalInvoiceExists(tx, input.job_id)) return { workflowId: null }
      const choice = await automationChoice(tx, triggerInvoiceAutomation)
      if (!choice.enabled) throw new AppError('conflict', 'The invoice workflow is turned off for this company; turn it on with workflows.toggle (workflow_id trigger_invoice), or use invoicing.generate.')
      const channel = choice.settings.channel ?? 'both'
      if (input.dry_run) return { dryRunChannel: channel }
      const spec = workflowStart(triggerInvoiceDefinition, { companyId, jobId: input.job_id, runNumber: await nextRunNumber(tx, TRIGGER_INVOICE, input.job_id), channel })
      await insertRun(tx, { companyId, automation: TRIGGER_INVOICE, workflowId: spec.workflowId, subjectType: 'job', subjectId: input.job_id }, now)
      await start(spec)
      return { workflowId: spec.workflowId }
    })
    const dryRun = input.dry_run ?? false
    if ('dryRunChannel' in started) return dryRunAnswer(await previewInvoiceAndSend(ctx.deps, companyId, input.job_id, started.dryRunChannel))
    if (!started.workflowId) {
      const invoice = (await existingFinalInvoice(ctx.deps, companyId, input.job_id))!
      return {
        workflow_id: null, status: 'completed' as const, already_invoiced: true, invoice: presentSummary(invoice), sent: null, dry_run: dryRun, messages: [],
        outcome: `The job already has its invoice ${invoice.invoiceNumber} (${invoice.status}); nothing was generated or sent. Resend it with POST /api/v1/invoices/${invoice.id}/send or payments.send_link.`,
      }
    }
    if (dryRun) return { workflow_id: started.workflowId, status: 'running' as const, outcome: 'Its run is under way; a dry run starts nothing.', already_invoiced: false, invoice: null, sent: null, dry_run: true, messages: [] }
    const answer = await awaitShortRun<TriggerInvoiceResult>(ctx.deps, started.workflowId)
    const r = answer.result
    return {
      workflow_id: started.workflowId, status: answer.status, outcome: answer.outcome, already_invoiced: r ? r.invoice !== null && !r.created : false,
      invoice: r?.invoice ? presentSummary(r.invoice) : null,
      sent: r?.send ? { purpose: r.send.purpose, channels: r.send.channels, skipped: r.send.skipped } : null,
      dry_run: false, messages: [],
    }
  },
})
