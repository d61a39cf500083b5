// payments.send_link: the job's client gets a link to pay its outstanding invoice online, by SMS
// and/or email. It needs an active payment account; without one the error says how to connect it.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound } from '../../core/errors.js'
import { formatCents, parseDollars } from '../../core/money.js'
import { companyToday } from '../../core/company-time.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { balanceCents, invoicesOfJob } from '../invoicing/queries.js'
import { loadInvoice } from '../invoicing/service.js'
import { sendInvoiceMessages } from '../invoicing/send.js'
import { findJob } from '../jobs/queries.js'
import { activeAccount } from './account.js'
import type { SendLinkInput } from './schema.js'

export async function sendPaymentLink(deps: Deps, principal: Principal, input: Static<typeof SendLinkInput>) {
  const now = deps.clock.now()
  return withTenantEmitting(deps, principal.companyId, async (tx, emit, start) => {
    const job = await findJob(tx, input.job_id)
    if (!job) throw notFound('Job')
    await activeAccount(deps, tx)
    const owing = (await invoicesOfJob(tx, job.id, job.quote_id, await companyToday(tx, now))).filter((r) => balanceCents(r) > 0)
    if (!owing.length) {
      throw new AppError('conflict', `Job ${job.title} has no invoice with a balance to pay. Generate one first with invoicing.generate (job_id ${job.id}).`, { next_step: 'invoicing.generate' })
    }
    // The oldest unpaid first: a deposit before a progress claim before the final invoice.
    const target = owing[0]!
    if (input.amount !== undefined && parseDollars(input.amount, 'amount') !== balanceCents(target)) {
      throw new AppError('validation_error', `The link collects the balance of ${target.invoice_number} (${formatCents(balanceCents(target))}); to ask for a different amount, issue a progress claim (invoicing.generate with progress_claim.amount) and send its link.`, {
        messages: [`amount: must equal the balance of ${target.invoice_number} (${(balanceCents(target) / 100).toFixed(2)})`],
      })
    }
    const channel = input.channel ?? 'sms'
    const { delivery, messages } = await sendInvoiceMessages(deps, tx, start, {
      companyId: principal.companyId, invoiceId: target.id, sms: channel !== 'email', email: channel !== 'sms', message: input.message, purpose: 'pay_link', now,
      dryRun: input.dry_run,
    }, emit)
    const invoice = await loadInvoice(deps, tx, target.id)
    return { invoice, payment_url: invoice.paymentUrl!, amount: invoice.balance, dry_run: input.dry_run ?? false, messages, delivery }
  })
}
