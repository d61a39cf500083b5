// workflows.trigger_invoice: the job's final invoice, then its first send (payment link, or the
// invoice without a payment account); each step recorded, the run closed with what happened.
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'
import { DATABASE_STEP } from './activity-options.js'
import { invoiceAndSend } from './invoice-steps.js'
import type { TriggerInvoiceInput, TriggerInvoiceResult } from '../src/domains/automations/job-flow/trigger-invoice.js'

const { finishAutomationRun } = proxyActivities<Activities>(DATABASE_STEP)

export async function triggerInvoice(input: TriggerInvoiceInput): Promise<TriggerInvoiceResult> {
  const { workflowId } = workflowInfo()
  const done = await invoiceAndSend({ companyId: input.companyId, workflowId, jobId: input.jobId, channel: input.channel })
  await finishAutomationRun({ companyId: input.companyId, workflowId, status: done.stop !== null ? 'stopped' : 'completed', outcome: done.summary })
  return { stopped: done.stop !== null, outcome: done.summary, invoice: done.invoice, created: done.created, send: done.send }
}
