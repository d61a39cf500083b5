import Type from 'typebox'
import { DateTime, Dollars, Nullable, StringEnum, UPDATE_OPTIONS } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { AuState, DryRun, MessageOutputFields } from '../shared-schema.js'
import { INVOICE_KINDS, INVOICE_STATUSES } from './document.js'

const closed = { additionalProperties: false } as const
const Id = (description: string) => Type.String({ format: 'uuid', description })
const Percent = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 100, description })
const Money = (description: string) => Dollars('incl', { description })

export const InvoiceLineSchema = Type.Object({
  description: Type.String(),
  quantity: Type.Number(),
  unitPrice: Dollars('ex', { description: 'Price per unit (negative on a line netting off an earlier invoice)' }),
  total: Dollars('ex', { description: 'quantity x unitPrice' }),
  gst: Dollars('gst', { description: 'GST on this line' }),
})

export const InvoiceSchema = Type.Object({
  id: Type.String(),
  invoiceNumber: Type.String({ description: 'Per-company, gapless: INV-00001 (credit notes CN-00001)' }),
  kind: StringEnum(INVOICE_KINDS, { description: 'deposit, progress (claim), final (net of earlier invoices) or credit_note' }),
  status: StringEnum(INVOICE_STATUSES),
  jobId: Nullable(Type.String()),
  quoteId: Nullable(Type.String()),
  leadId: Type.String(),
  clientName: Type.String(),
  lineItems: Type.Array(InvoiceLineSchema),
  subtotal: Dollars('ex', { description: 'Sum of line totals' }),
  gst: Dollars('gst', { description: 'Sum of the lines\' GST (a credit note: one eleventh of its total, to the cent)' }),
  total: Dollars('incl', { description: 'subtotal + gst: what the client pays (a credit note: what it takes off)' }),
  amountPaid: Money('Paid on it so far'),
  balance: Dollars('incl', { description: 'Still owed: total - paid - credited' }),
  issueDate: Type.String({ format: 'date' }),
  dueDate: Type.String({ format: 'date' }),
  notes: Nullable(Type.String()),
  publicUrl: Type.String({ description: "The client's invoice page (unguessable link)" }),
  pdfUrl: Type.String({ description: 'The tax invoice as a PDF' }),
  paymentUrl: Nullable(Type.String({ description: 'Pay online; null without an active payment account or once nothing is owed' })),
  creditsInvoiceId: Nullable(Type.String()),
  replacesInvoiceId: Nullable(Type.String()),
  voidedAt: Nullable(DateTime()),
  voidReason: Nullable(Type.String()),
  sentAt: Nullable(DateTime()),
  paidAt: Nullable(DateTime()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
})

const Delivery = Type.Object({
  workflow_id: Nullable(Type.String({ description: 'Temporal workflow sending the messages' })),
  channels: Type.Array(StringEnum(['sms', 'email'] as const)),
  skipped: Type.Array(Type.String({ description: 'Why a requested channel was not used' })),
})

export const ProgressClaimInput = Type.Object(
  {
    percent: Type.Optional(Percent('Share of the quote (or job amount) to claim, e.g. 50')),
    amount: Type.Optional(Dollars('incl', { exclusiveMinimum: 0, maximum: 10_000_000, description: 'Amount to claim' })),
    line_items: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 200 }), { minItems: 1, maxItems: 200, description: 'Quote line numbers (1-based) to claim in full' })),
    payment_claim: Type.Optional(Type.Boolean({ default: false, description: "Add a payment-claim statement under the state's security-of-payment act (commercial construction work)" })),
  },
  { ...closed, minProperties: 1, description: 'Invoice a stage of a job under way: exactly one of percent, amount or line_items' },
)

export const GenerateInvoiceInput = Type.Object(
  {
    job_id: Id('Job to invoice'),
    progress_claim: Type.Optional(ProgressClaimInput),
    due_in_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 120, description: "Days until payment is due (0 = on receipt); default the company's payment terms (14 days)" })),
    notes: Type.Optional(Type.String({ maxLength: 2000, description: 'Notes printed on the invoice' })),
    send_sms: Type.Optional(Type.Boolean({ default: false, description: "Text the invoice link to the client's mobile" })),
    send_email: Type.Optional(Type.Boolean({ default: false, description: 'Email the invoice with its PDF attached' })),
    dry_run: Type.Optional(Type.Boolean({
      default: false,
      description: 'true: issue, send and count nothing; return the invoice as it would be issued now and the exact messages send_sms/send_email would send (only the token in its link differs).',
    })),
  },
  closed,
)

export const GenerateInvoiceResponse = Type.Object({
  invoice: InvoiceSchema,
  invoice_number: Type.String(),
  total: Money('Invoice total'),
  payment_url: Nullable(Type.String({ description: 'Set when a payment account is active' })),
  ...MessageOutputFields,
  delivery: Delivery,
})

export const InvoiceResponse = Type.Object({ invoice: InvoiceSchema })

export const ListInvoicesInput = Type.Object(
  {
    status: Type.Optional(StringEnum(INVOICE_STATUSES, { description: 'Only invoices in this status (Overdue: past due and not fully paid)' })),
    kind: Type.Optional(StringEnum(INVOICE_KINDS)),
    job_id: Type.Optional(Id('Only invoices of this job')),
    ...PagingInput,
  },
  closed,
)
export const InvoiceListResponse = Type.Object({ invoices: Type.Array(InvoiceSchema), ...PageFields })

export const InvoiceIdInput = Type.Object({ id: Id('Invoice') }, closed)

export const SendInvoiceInput = Type.Object(
  {
    id: Id('Invoice to send'),
    send_sms: Type.Optional(Type.Boolean({ default: false })),
    send_email: Type.Optional(Type.Boolean({ default: true })),
    message: Type.Optional(Type.String({ maxLength: 1000, description: "The owner's note, sent as written after the greeting (a note with its own greeting replaces ours)" })),
    dry_run: DryRun,
  },
  closed,
)
export const SendInvoiceResponse = Type.Object({ invoice: InvoiceSchema, ...MessageOutputFields, delivery: Delivery })

export const VoidInvoiceInput = Type.Object(
  { id: Id('Invoice to void (nothing may have been paid on it)'), reason: Type.String({ minLength: 3, maxLength: 500, description: 'Why it is voided' }) },
  closed,
)

export const CreditNoteInput = Type.Object(
  {
    id: Id('Invoice to credit'),
    amount: Dollars('incl', { exclusiveMinimum: 0, maximum: 10_000_000, description: 'Credit; its GST is one eleventh, to the cent. At most the balance (to cancel a whole unpaid invoice, void it)' }),
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  closed,
)
export const CreditNoteResponse = Type.Object({ credit_note: InvoiceSchema, invoice: InvoiceSchema })

export const RecordPaymentInput = Type.Object(
  {
    id: Id('Invoice paid'),
    amount: Dollars('incl', { exclusiveMinimum: 0, maximum: 10_000_000, description: 'Amount received; at most the balance' }),
    method: StringEnum(['bank_transfer', 'cash', 'cheque', 'card', 'other'] as const),
    reference: Type.Optional(Type.String({ maxLength: 200, description: 'Bank reference or receipt number; the same reference twice records one payment' })),
    received_at: Type.Optional(DateTime({ description: 'When it was received (default now)' })),
  },
  closed,
)
export const PaymentSchema = Type.Object({
  id: Type.String(), invoiceId: Type.String(), amount: Money('Applied to the invoice'), surcharge: Money('Card surcharge paid on top'), method: Type.String(), provider: Type.String(),
  reference: Nullable(Type.String()), receivedAt: DateTime(),
})
export const RecordPaymentResponse = Type.Object({ payment: PaymentSchema, invoice: InvoiceSchema, already_recorded: Type.Boolean() })

export const ChaseInput = Type.Object(
  {
    jobId: Type.Optional(Id('Job whose overdue invoice to chase; omit to list all overdue invoices')),
    tone: Type.Optional(StringEnum(['friendly', 'firm', 'final'] as const, { description: 'Reminder tone, used with jobId: friendly (7+ days overdue), firm (14+), final (30+); default the level its days overdue reach' })),
    channel: Type.Optional(StringEnum(['sms', 'email', 'both'] as const, { description: "Default: every channel the client has" })),
    dry_run: DryRun,
  },
  closed,
)
const ChaseLevel = Nullable(StringEnum(['friendly', 'firm', 'final'] as const))
export const OverdueInvoice = Type.Object({
  invoiceId: Type.String(), invoiceNumber: Type.String(), jobId: Nullable(Type.String()), clientName: Type.String(),
  dueDate: Type.String(), daysOverdue: Type.Integer(), chaseLevel: ChaseLevel, balance: Money('Still owed'),
  lastReminder: Nullable(Type.Object({ tone: Type.String(), sentAt: DateTime() })),
  automation: Nullable(Type.Object({
    workflowId: Type.String({ description: 'The payment-chase workflow (workflows.chase_payment); inspect it in the Temporal UI' }),
    status: Type.String({ description: 'running, completed, stopped or failed' }),
    tier: Nullable(StringEnum(['friendly', 'firm', 'final'] as const, { description: 'Tone of the last reminder the chase sent; null before its first' })),
    stepsSent: Type.Integer({ description: 'Reminders the chase has sent' }),
    stepsPlanned: Type.Integer({ description: 'Steps in its cadence' }),
    next: Nullable(Type.Object({ step: Type.String({ description: 'e.g. "step 3: firm"' }), at: DateTime() }, { description: 'The next reminder and when it is due' })),
    outcome: Nullable(Type.String({ description: 'How it ended, once it has' })),
  }, { description: "The invoice's automated payment chase; null when it has none (start one with workflows.chase_payment)" })),
})
export const ChaseResponse = Type.Object({
  overdue: Type.Array(OverdueInvoice),
  total_outstanding: Dollars('incl', { description: 'Sum of the overdue balances listed' }),
  reminder: Nullable(Type.Object({ invoiceNumber: Type.String(), tone: Type.String(), daysOverdue: Type.Integer(), delivery: Delivery })),
  ...MessageOutputFields,
})

export const RecoveryInput = Type.Object(
  {
    job_id: Type.Optional(Id('Job whose unpaid invoice to plan recovery for; omit for all invoices 30+ days overdue')),
    state: Type.Optional(AuState("State or territory whose courts and tribunals apply; defaults to the company's state")),
  },
  closed,
)
const Step = Type.String()
export const RecoveryResponse = Type.Object({
  invoices: Type.Array(Type.Object({
    invoiceNumber: Type.String(), clientName: Type.String(), balance: Money('Still owed'), daysOverdue: Type.Integer(),
    options: Type.Array(Type.Object({ option: Type.String(), summary: Type.String(), steps: Type.Array(Step), details: Type.Optional(Type.Record(Type.String(), Type.Unknown())) })),
  })),
  state: Nullable(Type.String()),
  sources: Type.Array(Type.Object({ fact: Type.String(), source: Type.String(), asOf: Type.String() })),
  advice_only: Type.Literal(true),
  note: Type.String(),
})

export const InvoicingSettingsSchema = Type.Object({
  payment_terms_days: Type.Integer(),
  default_deposit_percent: Nullable(Type.Number()),
  card_surcharge_percent: Nullable(Type.Number()),
  card_acceptance_cost_percent: Nullable(Type.Number()),
  state: Nullable(Type.String()),
  payment_instructions: Nullable(Type.String()),
})
export const UpdateInvoicingSettingsInput = Type.Object(
  {
    payment_terms_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 120, description: 'Default days until an invoice is due (14 unless set)' })),
    default_deposit_percent: Type.Optional(Nullable(Percent('Deposit new quotes ask for, % of the total; null for none'))),
    card_surcharge_percent: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 10, description: 'Surcharge on card payments, %; null turns it off. Never above card_acceptance_cost_percent' }))),
    card_acceptance_cost_percent: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 10, description: 'What accepting a card costs you, % (processor fees); the surcharge cap' }))),
    state: Type.Optional(Nullable(AuState('Where you trade: picks the small-claims forum and security-of-payment act'))),
    payment_instructions: Type.Optional(Nullable(Type.String({ maxLength: 1000, description: 'How to pay by bank transfer (BSB, account), printed on invoices' }))),
  },
  { ...UPDATE_OPTIONS, minProperties: 1 },
)
export const InvoicingSettingsResponse = Type.Object({ settings: InvoicingSettingsSchema })
