import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ, SEND, WRITE } from '../../core/annotations.js'
import { EmptyInput } from '../../core/schema-helpers.js'
import { creditNote, recordManualPayment, sendInvoice, voidInvoice } from './adjust.js'
import { chaseInvoices } from './chase.js'
import { recoveryOptions } from './recovery.js'
import {
  ChaseInput, ChaseResponse, CreditNoteInput, CreditNoteResponse, GenerateInvoiceInput, GenerateInvoiceResponse, InvoiceIdInput, InvoiceListResponse,
  InvoiceResponse, InvoicingSettingsResponse, ListInvoicesInput, RecordPaymentInput, RecordPaymentResponse, RecoveryInput, RecoveryResponse,
  SendInvoiceInput, SendInvoiceResponse, UpdateInvoicingSettingsInput, VoidInvoiceInput,
} from './schema.js'
import { generateInvoice, getInvoice, listInvoices } from './service.js'
import { getSettings, updateSettings } from './settings.js'

const financials = (permission: 'read' | 'write' | 'admin') => ({ scope: 'financials' as const, permission })

/** The spec's three invoicing tools (MCP and REST). */
export const invoicingTools = [
  defineOperation({
    name: 'invoicing.generate',
    domain: 'invoicing',
    title: 'Generate an invoice',
    description:
      "Issue a tax invoice for a job (job_id). Without progress_claim the job must be Completed: this is its final invoice, with the quote's lines and any recorded extras, net of every deposit and progress claim already invoiced. With progress_claim (percent, amount incl. GST, or quote line_items) it bills a stage of a job under way (Quoted, Scheduled or In Progress). GST 10% per line in cents; numbered INV-00001 per company; due after the company's payment terms (14 days unless set). Returns the invoice number, total and, when a payment account is active, the payment URL. send_email attaches the PDF; send_sms texts the link (either moves it from Draft to Sent and emits invoice.sent).",
    input: GenerateInvoiceInput,
    output: GenerateInvoiceResponse,
    access: financials('write'),
    cost: 'write',
    // send_sms / send_email message the client.
    annotations: { ...WRITE, openWorldHint: true },
    rest: { method: 'POST', path: '/invoices', status: 201, feature: 'restWrite' },
    run: (ctx, input) => generateInvoice(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'invoicing.chase',
    domain: 'invoicing',
    title: 'Chase overdue invoices',
    description:
      "Without jobId: lists overdue invoices with days overdue, chase level and total outstanding (nothing is sent). With jobId (and optionally tone): sends a payment reminder for that job's overdue invoice by the client's channels (channel sms, email or both) and records it. Tiers by days overdue: friendly at 7 or more days, firm at 14 or more, final at 30 or more; tone defaults to the tier reached.",
    input: ChaseInput,
    output: ChaseResponse,
    access: financials('write'),
    cost: 'write',
    annotations: SEND,
    rest: { method: 'POST', path: '/invoices/chase', feature: 'restWrite' },
    run: (ctx, input) => chaseInvoices(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'invoicing.recovery',
    domain: 'invoicing',
    title: 'Debt recovery options',
    description:
      "Recovery options for a badly overdue invoice (job_id) or for every invoice 30+ days overdue: a payment-plan proposal with its instalments, a final notice / letter of demand, the state's small-claims forum and its limit (e.g. NSW Local Court Small Claims up to $20,000, QCAT minor debts up to $25,000) and, for construction work, the security-of-payment act. Each fact carries its source and date. Advice only: nothing is sent or filed.",
    input: RecoveryInput,
    output: RecoveryResponse,
    access: financials('read'),
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => recoveryOptions(ctx.deps, ctx.principal!, input),
  }),
]

/** Invoice management: REST routes and, beyond the spec's tool list, tools (AGENT_PARITY). */
export const invoiceManagement = [
  defineOperation({
    name: 'invoicing.list', domain: 'invoicing', title: 'List invoices',
    description: 'Invoices and credit notes newest first, with lines, GST, amount paid and balance. Filter by status (Overdue: past due, not fully paid), kind or job_id.',
    input: ListInvoicesInput, output: InvoiceListResponse, access: financials('read'), cost: 'read', annotations: READ, beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/invoices' },
    run: (ctx, input) => listInvoices(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'invoicing.get', domain: 'invoicing', title: 'Get an invoice', description: 'One invoice or credit note by id.',
    input: InvoiceIdInput, output: InvoiceResponse, access: financials('read'), cost: 'read', annotations: READ, beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/invoices/:id' },
    run: (ctx, input) => getInvoice(ctx.deps, ctx.principal!, input.id),
  }),
  defineOperation({
    name: 'invoicing.send', domain: 'invoicing', title: 'Send an invoice',
    description: 'Email the invoice with its PDF attached (send_email, default true) and/or text its link (send_sms). A Draft becomes Sent; emits invoice.sent.',
    input: SendInvoiceInput, output: SendInvoiceResponse, access: financials('write'), cost: 'write', annotations: SEND, beyondSpec: AGENT_PARITY,
    rest: { method: 'POST', path: '/invoices/:id/send', status: 200, feature: 'restWrite' },
    run: (ctx, input) => sendInvoice(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'invoicing.void', domain: 'invoicing', title: 'Void an invoice',
    description: 'Void an invoice nothing has been paid on (a sent invoice is never edited or deleted). Generate a new one to reissue it.',
    input: VoidInvoiceInput, output: InvoiceResponse, access: financials('write'), cost: 'write', annotations: WRITE, beyondSpec: AGENT_PARITY,
    rest: { method: 'POST', path: '/invoices/:id/void', status: 200, feature: 'restWrite' },
    run: (ctx, input) => voidInvoice(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'invoicing.credit_note', domain: 'invoicing', title: 'Issue a credit note',
    description: 'Reduce an invoice by an amount incl. GST with an adjustment note (CN-00001), at most its balance.',
    input: CreditNoteInput, output: CreditNoteResponse, access: financials('write'), cost: 'write', annotations: WRITE, beyondSpec: AGENT_PARITY,
    rest: { method: 'POST', path: '/invoices/:id/credit-notes', status: 201, feature: 'restWrite' },
    run: (ctx, input) => creditNote(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'invoicing.record_payment', domain: 'invoicing', title: 'Record a payment',
    description: 'Record money received outside the payment processor (bank transfer, cash, cheque), at most the balance. The same reference twice records one payment. Emits payment.received.',
    input: RecordPaymentInput, output: RecordPaymentResponse, access: financials('write'), cost: 'write', annotations: WRITE, beyondSpec: AGENT_PARITY,
    rest: { method: 'POST', path: '/invoices/:id/payments', status: 201, feature: 'restWrite' },
    run: (ctx, input) => recordManualPayment(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'invoicing.settings', domain: 'invoicing', title: 'Invoicing settings',
    description: 'Payment terms, default deposit, card surcharge and its cap, state, and bank-transfer instructions.',
    input: EmptyInput, output: InvoicingSettingsResponse, access: financials('read'), cost: 'read', annotations: READ, beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/settings/invoicing' },
    run: (ctx) => getSettings(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'invoicing.update_settings', domain: 'invoicing', title: 'Change invoicing settings',
    description: 'Change payment terms, the default deposit for new quotes, the card surcharge (never above the stated cost of card acceptance), state or payment instructions. Only what you give changes.',
    input: UpdateInvoicingSettingsInput, output: InvoicingSettingsResponse, access: financials('admin'), cost: 'write', annotations: WRITE, beyondSpec: AGENT_PARITY,
    rest: { method: 'PATCH', path: '/settings/invoicing', status: 200, feature: 'restWrite' },
    run: (ctx, input) => updateSettings(ctx.deps, ctx.principal!, input),
  }),
]
