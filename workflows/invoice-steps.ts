// The invoice-then-send steps trigger_invoice and quote_to_invoice share, each recorded in the run.
import { proxyActivities } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'
import { DATABASE_STEP } from './activity-options.js'
import type { InvoiceSummary, SendStep } from '../src/domains/automations/job-flow/invoice-job.js'

const { invoiceCompletedJob, sendInvoiceFirstTime, recordAutomationStep } = proxyActivities<Activities>(DATABASE_STEP)

export type InvoiceAndSend =
  | { stop: string; invoice: null; created: false; send: null; summary: string }
  | { stop: null; invoice: InvoiceSummary; created: boolean; send: SendStep; summary: string }

function describeSend(invoiceNumber: string, send: SendStep): string {
  if (send.skipped) return send.skipped
  const what = send.purpose === 'pay_link' ? 'payment link' : 'invoice (no active payment account, so no online payment link)'
  return `${what} for ${invoiceNumber} sent by ${send.channels.join(' and ')}${send.notSent.length ? `; not sent ${send.notSent.join('; ')}` : ''}; the payment chase starts from this send`
}

export async function invoiceAndSend(ids: { companyId: string; workflowId: string; jobId: string; channel: 'sms' | 'email' | 'both' }): Promise<InvoiceAndSend> {
  const { companyId, workflowId } = ids
  const made = await invoiceCompletedJob({ companyId, jobId: ids.jobId })
  if (made.stop !== null) return { stop: made.stop, invoice: null, created: false, send: null, summary: `not invoiced: ${made.stop}` }
  const invoice = made.invoice
  await recordAutomationStep({ companyId, workflowId, step: 'invoice', result: `${made.created ? 'generated' : 'already had'} invoice ${invoice.invoiceNumber}` })
  const send = await sendInvoiceFirstTime({ companyId, invoiceId: invoice.id, channel: ids.channel })
  const sent = describeSend(invoice.invoiceNumber, send)
  await recordAutomationStep({ companyId, workflowId, step: 'send', result: sent })
  return { stop: null, invoice, created: made.created, send, summary: `${made.created ? 'invoiced' : 'already invoiced'}: ${invoice.invoiceNumber}; ${sent}` }
}
