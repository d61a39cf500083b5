// What follows each invoice change (core/next-steps.ts): an unsent invoice is sent (or its pay link),
// a sent one waits for payment (the chase reminds the client unless it is turned off), a paid final
// invoice is followed by a review request, and a dry run by the same call for real.
import { formatDollars } from '../../core/money.js'
import { realCallStep, steps, type NextStep } from '../../core/next-steps.js'

interface InvoiceView {
  id: string
  invoiceNumber: string
  kind: string
  status: string
  jobId: string | null
  quoteId: string | null
  leadId: string
  balance: number
  paymentUrl: string | null
  creditsInvoiceId: string | null
}
interface Delivery { channels: string[]; skipped: string[] }

/** A dry run issues and sends nothing; the real call does what it showed. */
function dryRunStep(tool: string, messages: unknown[]): NextStep {
  return messages.length ? realCallStep(tool) : { tool, why: 'This was a dry run: nothing was issued or sent. Call again without dry_run to do it.' }
}

/** An invoice the client has not been sent: send it, or (with a payment account) its pay link. */
function toSend(invoice: InvoiceView, skipped: string[]): NextStep[] {
  const notSent = skipped.length ? ` Not sent: ${skipped.join('; ')}.` : ''
  return steps(
    { tool: 'invoicing.send', why: `Send ${invoice.invoiceNumber} to the client (id ${invoice.id}): email with the PDF and/or SMS; dry_run: true shows the messages first.${notSent}` },
    invoice.paymentUrl !== null && invoice.jobId !== null && { tool: 'payments.send_link', why: `Or text the client the link to pay the job's oldest unpaid invoice online (job_id ${invoice.jobId}).` },
    invoice.paymentUrl === null && invoice.balance > 0 && { tool: 'payments.connect_account', why: 'Optional: with an active payment account (payments.account shows its state) invoices carry a link to pay online.' },
  )
}

/** A sent invoice with money owing: wait for the payment, record one made outside the processor. */
function awaitingPayment(invoice: InvoiceView): NextStep[] {
  if (invoice.balance <= 0) return []
  return [
    {
      tool: 'invoicing.get',
      why: `Wait for payment of ${formatDollars(invoice.balance)}: ${invoice.invoiceNumber} shows Paid once paid (id ${invoice.id}), or subscribe to payment.received with webhooks.subscribe. The payment chase (on by default, workflows.list) reminds the client on its cadence.`,
    },
    { tool: 'invoicing.record_payment', why: `If the client pays by bank transfer, cash or cheque, record it (id ${invoice.id}).` },
  ]
}

/** After an invoice is issued or sent: what it needs next for the client to pay it. */
function forInvoice(invoice: InvoiceView, delivery: Delivery): NextStep[] {
  if (invoice.status === 'Draft') return toSend(invoice, delivery.skipped)
  // A send that reached nobody: the same problem, another channel.
  if (!delivery.channels.length && delivery.skipped.length) return toSend(invoice, delivery.skipped)
  return awaitingPayment(invoice)
}

export function afterGenerate(output: { invoice: InvoiceView; dry_run: boolean; messages: unknown[]; delivery: Delivery }): NextStep[] {
  if (output.dry_run) return [dryRunStep('invoicing.generate', output.messages)]
  return forInvoice(output.invoice, output.delivery)
}

export function afterSend(output: { invoice: InvoiceView; dry_run: boolean; messages: unknown[]; delivery: Delivery }): NextStep[] {
  if (output.dry_run) return [dryRunStep('invoicing.send', output.messages)]
  return forInvoice(output.invoice, output.delivery)
}

interface OverdueView { invoiceNumber: string; jobId: string | null; daysOverdue: number }

export function afterChase(
  output: { overdue: OverdueView[]; reminder: { invoiceNumber: string; tone: string } | null; dry_run: boolean; messages: unknown[] },
  input: { jobId?: string },
): NextStep[] {
  if (output.dry_run && input.jobId) return [realCallStep('invoicing.chase')]
  if (output.reminder && input.jobId) {
    // The final notice gives the client 7 days before recovery begins (its wording, chase.ts).
    return output.reminder.tone === 'final'
      ? [{ tool: 'invoicing.recovery', why: `If ${output.reminder.invoiceNumber} is still unpaid 7 days after this final notice: payment plan, letter of demand, small claims (job_id ${input.jobId}).` }]
      : [{ tool: 'invoicing.chase', why: `Without jobId it shows whether ${output.reminder.invoiceNumber} is still overdue; send the next tone when it is (firm from 14 days, final from 30).` }]
  }
  // A listing: the most overdue invoice of a job is the one to chase first.
  const first = [...output.overdue].filter((o) => o.jobId).sort((a, b) => b.daysOverdue - a.daysOverdue)[0]
  const long = output.overdue.filter((o) => o.daysOverdue >= 30).length
  return steps(
    first && { tool: 'invoicing.chase', why: `Remind the client of ${first.invoiceNumber}, ${first.daysOverdue} days overdue: jobId ${first.jobId}; dry_run: true shows the message first.` },
    long > 0 && { tool: 'invoicing.recovery', why: `${long} invoice(s) are 30 or more days overdue: see the recovery options.` },
  )
}

export function afterVoid(output: { invoice: InvoiceView }): NextStep[] {
  const invoice = output.invoice
  if (invoice.kind === 'credit_note' && invoice.creditsInvoiceId) {
    return [{ tool: 'invoicing.get', why: `The credited invoice owes this amount again (id ${invoice.creditsInvoiceId}).` }]
  }
  if (!invoice.jobId) return []
  return invoice.kind === 'final'
    ? [{ tool: 'invoicing.generate', why: `Reissue the job's final invoice (job_id ${invoice.jobId}) with whatever was wrong put right first.` }]
    : [{ tool: 'invoicing.generate', why: `To bill this stage again, issue a progress claim (job_id ${invoice.jobId}, progress_claim) while the job is under way.` }]
}

export function afterCreditNote(output: { credit_note: InvoiceView; invoice: InvoiceView }): NextStep[] {
  const invoice = output.invoice
  if (invoice.balance <= 0) return []
  return [{ tool: 'invoicing.send', why: `Tell the client: ${invoice.invoiceNumber} now owes ${formatDollars(invoice.balance)}; sending it again shows that balance (id ${invoice.id}).` }]
}

export function afterPayment(output: { invoice: InvoiceView }): NextStep[] {
  const invoice = output.invoice
  if (invoice.balance > 0) {
    return [{ tool: 'invoicing.send', why: `${formatDollars(invoice.balance)} is still owed on ${invoice.invoiceNumber}; sending it again asks for that balance (id ${invoice.id}).` }]
  }
  if (invoice.kind === 'final') {
    return invoice.jobId ? [{ tool: 'reviews.request', why: `Paid in full: ask the client for a review (job_id ${invoice.jobId}); once per job.` }] : []
  }
  if (invoice.kind === 'deposit') {
    return invoice.jobId
      ? [{ tool: 'jobs.update', why: `Deposit paid: book the job if it is not yet (job_id ${invoice.jobId}, scheduled_date).` }]
      : invoice.quoteId ? [{ tool: 'jobs.create', why: `Deposit paid and the quote has no job yet: create it (lead_id ${invoice.leadId}, quote_id ${invoice.quoteId}).` }] : []
  }
  return invoice.jobId ? [{ tool: 'jobs.complete', why: `Claim paid. When the work is done, complete the job (job_id ${invoice.jobId}); its final invoice nets this claim off.` }] : []
}
