// workflows.trigger_invoice: the job's final invoice, then its first send (payment link, or the
// invoice without a payment account); each step recorded, the run closed with what happened.
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP } from '../../../../../workflows/activity-options.js'
import { invoiceAndSend, type InvoiceStepsActivities, type InvoiceSummary, type SendStep } from '../../../../../workflows/invoice-steps.js'
import type { ChannelChoice } from '../../../../../workflows/messages.js'

export interface TriggerInvoiceInput {
  companyId: string
  jobId: string
  runNumber: number
  channel: ChannelChoice
}

export interface TriggerInvoiceResult {
  stopped: boolean
  outcome: string
  invoice: InvoiceSummary | null
  /** False when the job had its invoice already. */
  created: boolean
  send: SendStep | null
}

/** One run per job and request number. */
export const triggerInvoiceWorkflowId = (keys: Pick<TriggerInvoiceInput, 'companyId' | 'jobId' | 'runNumber'>) => `trigger-invoice:${keys.companyId}:${keys.jobId}:${keys.runNumber}`

export type TriggerInvoiceActivities = InvoiceStepsActivities

const { finishAutomationRun } = proxyActivities<TriggerInvoiceActivities>(DATABASE_STEP)

export async function triggerInvoice(input: TriggerInvoiceInput): Promise<TriggerInvoiceResult> {
  const { workflowId } = workflowInfo()
  const done = await invoiceAndSend({ companyId: input.companyId, workflowId, jobId: input.jobId, channel: input.channel })
  await finishAutomationRun({ companyId: input.companyId, workflowId, status: done.stop !== null ? 'stopped' : 'completed', outcome: done.summary })
  return { stopped: done.stop !== null, outcome: done.summary, invoice: done.invoice, created: done.created, send: done.send }
}
