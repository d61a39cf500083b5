// What follows a payment step (core/next-steps.ts): a sent pay link waits for the client to pay; a
// connected account either takes payments now (sandbox, or Stripe once active) or waits for the
// owner to finish the processor's sign-up.
import { formatDollars } from '../../core/money.js'
import { realCallStep, type NextStep } from '../../core/next-steps.js'

interface LinkResult {
  invoice: { id: string; invoiceNumber: string; jobId: string | null }
  amount: number
  dry_run: boolean
  delivery: { channels: string[]; skipped: string[] }
}

export function afterSendLink(output: LinkResult, input: { job_id: string }): NextStep[] {
  if (output.dry_run) return [realCallStep('payments.send_link')]
  const { invoice } = output
  if (!output.delivery.channels.length) {
    return [{ tool: 'payments.send_link', why: `Nothing was sent (${output.delivery.skipped.join('; ')}): try another channel (job_id ${input.job_id}), or add the client's mobile or email with leads.update.` }]
  }
  return [
    {
      tool: 'invoicing.get',
      why: `Wait for the client to pay ${formatDollars(output.amount)}: ${invoice.invoiceNumber} shows Paid once they do (id ${invoice.id}), or subscribe to payment.received with webhooks.subscribe.`,
    },
    { tool: 'invoicing.record_payment', why: `If they pay another way (bank transfer, cash), record it (id ${invoice.id}).` },
  ]
}

interface AccountResult { account: { status: string; onboarding_url: string | null } }

export function afterConnect(output: AccountResult): NextStep[] {
  if (output.account.status === 'active') {
    return [{ tool: 'payments.send_link', why: "Clients can pay online now: invoices with a balance carry a payment link, and this sends a job's client the link to pay (job_id)." }]
  }
  return [{
    tool: 'payments.account',
    why: "The owner finishes the processor's sign-up at onboarding_url; check here afterwards: the account turns active when the processor allows charges.",
  }]
}
