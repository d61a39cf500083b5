// On-my-way notices: queued with the job's state read in one transaction, delivered by the
// deliverMessages workflow (retries, one send per key).
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound } from '../../core/errors.js'
import { escapeHtml } from '../../core/html-escape.js'
import { isAuMobile } from '../../core/phone.js'
import { customerEmail, customerSms, firstNameOf } from '../comms/customer-message.js'
import { messageViews } from '../comms/preview.js'
import { reserveMessageDelivery, type QueuedMessage } from '../comms/deliver.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import { findJob, findNoticeCompany, presentJob, updateEtaCount } from './queries.js'
import { localDate } from '../../core/zoned-time.js'
import type { SendEtaInput } from './schema.js'

export async function sendEta(deps: Deps, principal: Principal, input: Static<typeof SendEtaInput>) {
  const now = deps.clock.now()
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const row = await findJob(tx, input.job_id, { forUpdate: true })
    if (!row) throw notFound('Job')
    if (row.status === 'Completed' || row.status === 'Cancelled') {
      throw new AppError('conflict', `The job is ${row.status}; no on-my-way notice is needed.`, { current_status: row.status })
    }
    const company = (await findNoticeCompany(tx))!
    const firstName = firstNameOf(row.lead_name)
    const who = row.technician ? `${row.technician} from ${company.business_name}` : company.business_name
    const when = input.eta_minutes ? ` and should arrive in about ${input.eta_minutes} minutes` : ''
    const about = `${who} is on the way${when}.`
    const channel = input.channel ?? 'sms'
    // Numbered per job, so a retried delivery of notice n never sends twice (never keyed by the
    // clock). A dry run takes no number: its messages are shown, never keyed or delivered.
    const notice = input.dry_run ? 'dry-run' : await updateEtaCount(tx, row.id)
    const key = `eta:${row.id}:${notice}`
    const base = { messageType: 'eta', leadId: row.lead_id, jobId: row.id }
    const messages: QueuedMessage[] = []
    const skipped: string[] = []
    if (channel !== 'email') {
      if (row.lead_phone && isAuMobile(row.lead_phone)) {
        messages.push({ ...base, channel: 'sms', to: row.lead_phone, body: customerSms({ firstName, note: input.message, about }), idempotencyKey: `${key}:sms` })
      } else skipped.push('sms: the client has no Australian mobile number')
    }
    if (channel !== 'sms') {
      if (row.lead_email) {
        const email = customerEmail({ firstName, note: input.message, about, aboutHtml: escapeHtml(about), signOff: company.business_name })
        messages.push({ ...base, channel: 'email', to: row.lead_email, subject: `${company.business_name} is on the way`, body: email.html, text: email.text, idempotencyKey: `${key}:email` })
      } else skipped.push('email: the client has no email address')
    }
    if (!messages.length) throw new AppError('validation_error', 'The client cannot be reached on the chosen channel.', { messages: skipped })
    const job = presentJob(row, localDate(deps.clock.now(), company.time_zone))
    const views = await messageViews(tx, messages)
    if (input.dry_run) return { job, dry_run: true, messages: views, delivery: { workflow_id: null, channels: messages.map((m) => m.channel), skipped } }
    const delivery = await start(await reserveMessageDelivery(tx, { companyId: principal.companyId, subject: `job-eta:${row.id}:${notice}`, messages, now }))
    return { job, dry_run: false, messages: views, delivery: { workflow_id: delivery.workflow_id, channels: messages.map((m) => m.channel), skipped } }
  })
}
