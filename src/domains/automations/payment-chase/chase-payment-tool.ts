// workflows.chase_payment: with jobId, start (or report) the chase of that job's open invoices;
// without, scan the overdue invoices and start the chases that are missing. Sending an invoice
// starts its chase by itself; this is for invoices sent while the chase was off (or issued already
// sent, like a quote's deposit), and for asking where a chase stands.
import { afterChasePayment } from '../engine/next-steps.js'
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
import { previewInvoiceChase, startInvoiceChase, type InvoiceChaseInput } from './chase-payment.js'
import type { ChannelChoice } from '../quote-follow-up/follow-up-quote.js'
import { chasePaymentAutomation } from './automation.js'
import { deleteFailedRun, findChaseRun, findJobId, listOpenJobInvoices, listOverdueInvoicesToChase, type OpenInvoice } from './queries.js'
import { companyToday } from '../../../core/company-time.js'
import { invoiceChaseWorkflowId } from './workflows/invoice-chase.js'

const SCAN_LIMIT = 200

const Step = Type.Object({ step: Type.Integer(), tone: Type.String(), at: Type.String({ description: 'ISO time' }) })
const ChasePaymentOutput = Type.Object({
  started: Type.Array(Type.Object({
    invoice_id: Type.String(), invoice_number: Type.String(), workflow_id: Type.String(),
    steps: Type.Array(Step, { description: 'The cadence: each step\'s tone and time (steps already past are skipped; an overdue invoice gets the latest of them now)' }),
  }), { description: 'Chases started now (dry run: that would start)' }),
  existing: Type.Array(Type.Object({
    invoice_id: Type.String(), invoice_number: Type.String(), workflow_id: Type.String(),
    status: Type.String({ description: 'running, completed, stopped or failed' }), outcome: Type.Union([Type.String(), Type.Null()]),
    tier: Type.Union([Type.String(), Type.Null()], { description: 'Tone of the last reminder sent (null: none yet)' }),
  }), { description: 'Invoices that already have a chase' }),
  skipped: Type.Array(Type.Object({ invoice_id: Type.String(), invoice_number: Type.String(), reason: Type.String() })),
  ...RunMessageFields,
})
type Out = Omit<Static<typeof ChasePaymentOutput>, keyof typeof RunMessageFields>

async function ensureChase(
  deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit, companyId: string, inv: OpenInvoice, channel: ChannelChoice | undefined, out: Out,
): Promise<InvoiceChaseInput | null> {
  const workflowId = invoiceChaseWorkflowId({ companyId, invoiceId: inv.id })
  const run = await findChaseRun(tx, workflowId)
  if (run && run.status !== 'failed') {
    out.existing.push({ invoice_id: inv.id, invoice_number: inv.invoice_number, workflow_id: workflowId, status: run.status, outcome: run.outcome, tier: run.progress?.tier ?? null })
    return null
  }
  if (run) await deleteFailedRun(tx, workflowId) // started again below
  const started = await startInvoiceChase(deps, tx, start, { companyId, invoiceId: inv.id, dueDate: inv.due_date }, { channel })
  if (!started) return null
  out.started.push({ invoice_id: inv.id, invoice_number: inv.invoice_number, workflow_id: started.workflowId, steps: started.steps.map((s) => ({ step: s.number, tone: s.tone, at: s.at })) })
  return started.input
}

export async function chasePayments(deps: Deps, companyId: string, input: { jobId?: string; channel?: ChannelChoice; dry_run?: boolean }) {
  return rolledBack(() => withTenantThenStart(deps, companyId, async (tx, start) => {
    const today = await companyToday(tx, deps.clock.now())
    const out: Out = { started: [], existing: [], skipped: [] }
    const answer = async (runs: InvoiceChaseInput[]) => {
      if (!input.dry_run) return { ...out, dry_run: false, messages: [] }
      const messages: QueuedMessage[] = []
      for (const run of runs) messages.push(...(await previewInvoiceChase(deps, tx, run)))
      throw new RollBack({ ...out, dry_run: true, messages: await messageViews(tx, messages) })
    }
    let invoices: OpenInvoice[]
    if (input.jobId) {
      const job = await findJobId(tx, input.jobId)
      if (!job) throw notFound('Job')
      invoices = await listOpenJobInvoices(tx, input.jobId)
      if (!invoices.length) {
        throw new AppError('conflict', 'This job has no sent, unpaid invoice to chase. Generate one (invoicing.generate) and send it (POST /api/v1/invoices/{id}/send); sending starts its chase.', { job_id: input.jobId })
      }
    } else {
      // Those without a live chase first, so more than SCAN_LIMIT overdue invoices are all reached over repeated calls.
      invoices = await listOverdueInvoicesToChase(tx, today, SCAN_LIMIT)
    }
    if (!(await automationChoice(tx, chasePaymentAutomation)).enabled) {
      out.skipped = invoices.map((i) => ({ invoice_id: i.id, invoice_number: i.invoice_number, reason: 'the payment chase is turned off for this company (workflows.toggle)' }))
      return answer([])
    }
    const runs: InvoiceChaseInput[] = []
    for (const inv of invoices) {
      const run = await ensureChase(deps, tx, start, companyId, inv, input.channel, out)
      if (run) runs.push(run)
    }
    return answer(runs)
  }))
}

export const chasePaymentOperation = defineOperation({
  name: 'workflows.chase_payment',
  domain: 'workflows',
  title: 'Chase payments',
  description:
    "Start the automatic payment chase where it is missing: with jobId, for that job's sent, unpaid invoices; otherwise for the overdue ones (up to 200 a call). A chase sends reminders on the company's cadence at 9 am local time (default: friendly on the due date and at 7 days overdue, firm at 14, final at 30) until the invoice is paid or voided; chases that exist are reported. An invoice's first send starts its chase by itself (automation chase_payment, default on, without approval unless set). For one reminder now, invoicing.chase.",
  input: Type.Object(
    {
      jobId: Type.Optional(Id('Job whose invoice to chase; omit to scan all overdue invoices')),
      channel: Type.Optional(StringEnum(['sms', 'email', 'both'] as const, { description: "For every step; default each step's setting, else SMS to an Australian mobile, otherwise email" })),
      dry_run: DryRun,
    },
    closed,
  ),
  output: ChasePaymentOutput,
  access: { scope: 'financials', permission: 'write' },
  cost: 'write',
  annotations: { ...SEND, idempotentHint: true },
  nextSteps: afterChasePayment,
  run: (ctx, input) => chasePayments(ctx.deps, ctx.principal!.companyId, input),
})
