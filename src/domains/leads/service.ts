// Leads: create, update, list. lead.created is emitted in the lead's transaction; the automations
// react to it there (the instant response is queued in the workflow outbox with the lead).
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { notFound, validationError } from '../../core/errors.js'
import { recordEvent } from '../../core/events.js'
import { readOptionalAuPhone } from '../../core/phone.js'
import { withTenant } from '../../db/sql.js'
import { pageEnvelope, pageFrom } from '../../core/paging.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { RollBack, rolledBack } from '../../core/dry-run.js'
import { messageViews } from '../comms/preview.js'
import { findLead, insertLead, presentLead, readLeadPage, updateLeadRow, type LeadChanges } from './queries.js'
import type { CreateLeadInput, ListLeadsInput, UpdateLeadInput } from './schema.js'

function phoneOrThrow(phone: string | null | undefined): string | null {
  const read = readOptionalAuPhone(phone)
  if ('problem' in read) throw validationError([read.problem])
  return read.e164
}

const blankToNull = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim())

export async function createLead(deps: Deps, principal: Principal, input: Static<typeof CreateLeadInput>, defaultSource: string | null) {
  const phone = phoneOrThrow(input.phone)
  const now = deps.clock.now()
  const fields = {
    name: input.name.trim(),
    phone,
    email: blankToNull(input.email),
    service_type: blankToNull(input.serviceType),
    priority: input.priority ?? 'Normal',
    message: blankToNull(input.message),
    address: blankToNull(input.address),
    suburb: blankToNull(input.suburb),
    source: blankToNull(input.source) ?? defaultSource,
  }
  const created = (lead: Awaited<ReturnType<typeof insertLead>>) =>
    ({ companyId: principal.companyId, type: 'lead.created' as const, entityType: 'lead', entityId: lead.id, payload: { lead: presentLead(lead) }, at: now })
  if (input.dry_run) {
    // The lead is inserted so the reactions compose from it as they would, then rolled back.
    return rolledBack(() => withTenant(deps.db, principal.companyId, async (tx) => {
      const lead = await insertLead(tx, principal.companyId, fields, now)
      const messages = await messageViews(tx, await deps.reactions.preview({ deps, tx }, created(lead)))
      throw new RollBack({ lead: null, dry_run: true, messages })
    }))
  }
  // Reactions to lead.created (the instant response, referral tracking) run in this transaction.
  const row = await withTenantEmitting(deps, principal.companyId, async (tx, emit) => {
    const lead = await insertLead(tx, principal.companyId, fields, now)
    await emit(created(lead))
    return lead
  })
  return { lead: presentLead(row) }
}

export async function updateLead(deps: Deps, principal: Principal, input: Static<typeof UpdateLeadInput>) {
  const { lead_id: id, ...fields } = input
  const changes: LeadChanges = {}
  if (fields.name !== undefined) changes.name = fields.name.trim()
  if (fields.phone !== undefined) changes.phone = phoneOrThrow(fields.phone)
  if (fields.email !== undefined) changes.email = blankToNull(fields.email)
  if (fields.serviceType !== undefined) changes.service_type = blankToNull(fields.serviceType)
  for (const key of ['message', 'address', 'suburb', 'source'] as const) {
    if (fields[key] !== undefined) changes[key] = blankToNull(fields[key])
  }
  if (fields.priority !== undefined) changes.priority = fields.priority
  if (fields.status !== undefined) changes.status = fields.status
  if (Object.keys(changes).length === 0) throw validationError(['body: give at least one field to change besides lead_id'])

  const now = deps.clock.now()
  const row = await withTenant(deps.db, principal.companyId, async (tx) => {
    const before = await findLead(tx, id, { forUpdate: true })
    if (!before) throw notFound('Lead')
    const after = await updateLeadRow(tx, id, changes, now)
    const changed = Object.keys(changes).filter((k) => String(before[k as keyof typeof before]) !== String(after[k as keyof typeof after]))
    await recordEvent(tx, {
      companyId: principal.companyId, type: 'lead.updated', entityType: 'lead', entityId: id, at: now,
      payload: { lead: presentLead(after), changed: changed.map((k) => (k === 'service_type' ? 'serviceType' : k)) },
    })
    return after
  })
  return { lead: presentLead(row) }
}

export async function listLeads(deps: Deps, principal: Principal, input: Static<typeof ListLeadsInput>) {
  const page = pageFrom(input)
  const { rows, total } = await readLeadPage(deps.db, principal.companyId, { status: input.status, priority: input.priority }, page)
  const leads = rows.map(presentLead)
  return { leads, ...pageEnvelope(leads, total, page) }
}
