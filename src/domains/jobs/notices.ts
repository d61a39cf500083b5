// On-my-way notices: queued with the job's state read in one transaction, delivered by the
// deliverMessages workflow (retries, one send per key).
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound } from '../../core/errors.js'
import { escapeHtml } from '../../core/html-escape.js'
import { isAuMobile } from '../../core/phone.js'
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
    const company = await findNoticeCompany(tx)
    const first = row.lead_name.split(/\s+/)[0] ?? row.lead_name
    const who = row.technician ? `${row.technician} from ${company!.business_name}` : company!.business_name
    const when = input.eta_minutes ? ` and should arrive in about ${input.eta_minutes} minutes` : ''
    const text = `Hi ${first}, ${who} is on the way${when}.${input.message ? ` ${input.message}` : ''}`
    const channel = input.channel ?? 'sms'
    // Numbered per job, so a retried delivery of notice n never sends twice (never keyed by the clock).
    const notice = await updateEtaCount(tx, row.id)
    const key = `eta:${row.id}:${notice}`
    const base = { messageType: 'eta', leadId: row.lead_id, jobId: row.id }
    const messages: QueuedMessage[] = []
    const skipped: string[] = []
    if (channel !== 'email') {
      if (row.lead_phone && isAuMobile(row.lead_phone)) messages.push({ ...base, channel: 'sms', to: row.lead_phone, body: text, idempotencyKey: `${key}:sms` })
      else skipped.push('sms: the client has no Australian mobile number')
    }
    if (channel !== 'sms') {
      if (row.lead_email) {
        messages.push({ ...base, channel: 'email', to: row.lead_email, subject: `${company!.business_name} is on the way`, body: `<p>${escapeHtml(text)}</p>`, text, idempotencyKey: `${key}:email` })
      } else skipped.push('email: the client has no email address')
    }
    if (!messages.length) throw new AppError('validation_error', 'The client cannot be reached on the chosen channel.', { messages: skipped })
    const delivery = await start(await reserveMessageDelivery(tx, { companyId: principal.companyId, subject: `job-eta:${row.id}:${notice}`, messages, now }))
    return { job: presentJob(row, localDate(deps.clock.now(), company!.time_zone)), delivery: { workflow_id: delivery.workflow_id, channels: messages.map((m) => m.channel), skipped } }
  })
}
