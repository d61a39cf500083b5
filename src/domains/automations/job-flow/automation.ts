import Type from 'typebox'
import { StringEnum } from '../../../core/schema-helpers.js'
import { closed, defineAutomation, NoSettings } from '../engine/catalogue.js'

/** workflows.trigger_invoice and workflows.quote_to_invoice: how the invoice's payment link goes out. */
export const InvoiceFlowSettings = Type.Object(
  { channel: Type.Optional(StringEnum(['sms', 'email', 'both'] as const, { default: 'both', description: "How the payment link (or the invoice) reaches the client: sms, email or both (default both; a channel the client has no details for is skipped)" })) },
  closed,
)

export const scheduleJobAutomation = defineAutomation({
  key: 'schedule_job', tool: 'workflows.schedule_job', title: 'Schedule on the next business day',
  trigger: 'on request (workflows.schedule_job)', action: "books the job on the next business day of the company's state (weekends and public holidays skipped), status Scheduled",
  enabledByDefault: true, settings: NoSettings,
})

export const triggerInvoiceAutomation = defineAutomation({
  key: 'trigger_invoice', tool: 'workflows.trigger_invoice', title: 'Invoice a completed job',
  trigger: 'on request (workflows.trigger_invoice)', action: 'the final invoice, then the payment link (the invoice without a payment account); the payment chase follows',
  enabledByDefault: true, settings: InvoiceFlowSettings,
})

export const quoteToInvoiceAutomation = defineAutomation({
  key: 'quote_to_invoice', tool: 'workflows.quote_to_invoice', title: 'Quote to invoice',
  trigger: 'on request for an Accepted quote (workflows.quote_to_invoice)', action: "makes the quote's job, waits until it is Completed, then invoices it and sends the payment link; stops if the job is cancelled",
  enabledByDefault: true, settings: InvoiceFlowSettings,
})

export const processLeadAutomation = defineAutomation({
  key: 'process_lead', tool: 'workflows.process_lead', title: 'Lead processing',
  trigger: 'on request (workflows.process_lead)', action: 'scores the lead, sets its priority, makes one follow-up reminder and starts the instant response if it has not run',
  enabledByDefault: true, settings: NoSettings,
})
