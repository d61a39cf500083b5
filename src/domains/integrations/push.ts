// integrations.push_entity: one lead (as a contact) or invoice (its client first) sent to the
// accounting package now. Never a second record there: a linked record is not pushed again; a
// contact is matched by ABN, then email, then name before one is created; every write carries an
// Idempotency-Key made from the connection and our record, so a retried push (after a lost answer,
// a 5xx, or a crash before the link was stored) gets the record the first attempt made.
import type { Static } from 'typebox'
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, validationError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { PROVIDER_NAMES } from '../../providers/accounting/catalogue.js'
import { ProviderCallError, type AccountingEntity, type ContactFields, type ProviderContact, type RateLimits } from '../../providers/accounting/provider.js'
import { findConnection, findInvoiceForPush, findLeadContact, findLink, insertLink, markPushed, presentConnection, recordConnectionError, type EntityLink } from './queries.js'
import type { PushEntityInput } from './schema.js'
import { connectionAccess, keepLimits, type ConnectionAccess } from './tokens.js'

export type Outcome = 'created' | 'matched' | 'already_linked'
type MatchedBy = 'abn' | 'email' | 'name'
export interface Pushed { providerId: string; providerNumber: string | null; outcome: Outcome; matchedBy: MatchedBy | null }

export const idempotencyKey = (connectionId: string, entity: AccountingEntity, ourId: string) => `tradie-${connectionId}-${entity}-${ourId}`

/** Runs in the transaction that stores a link (the sync moves its cursor there). */
export type AfterLink = (tx: postgres.TransactionSql, entity: AccountingEntity, ourId: string) => Promise<void>

export class PushContext {
  limits: RateLimits | null = null
  constructor(readonly deps: Deps, readonly companyId: string, readonly access: ConnectionAccess, readonly afterLink: AfterLink | null = null) {}
  keep<T>(result: { value: T; limits: RateLimits | null }): T {
    this.limits = result.limits ?? this.limits
    return result.value
  }
  tx<T>(fn: (tx: postgres.TransactionSql) => Promise<T>) { return withTenant(this.deps.db, this.companyId, fn) }
  link(entity: AccountingEntity, ourId: string, link: EntityLink) {
    return this.tx(async (tx) => {
      const stored = await insertLink(tx, this.companyId, this.access.connection.id, entity, ourId, link, this.deps.clock.now())
      await this.afterLink?.(tx, entity, ourId)
      return stored
    })
  }
}

function matchedBy(wanted: ContactFields, found: ProviderContact): MatchedBy {
  if (wanted.abn && found.abn === wanted.abn) return 'abn'
  if (wanted.email && found.email?.toLowerCase() === wanted.email.toLowerCase()) return 'email'
  return 'name'
}

export async function pushContact(ctx: PushContext, leadId: string): Promise<Pushed> {
  const { connection, provider, auth } = ctx.access
  const existing = await ctx.tx((tx) => findLink(tx, connection.id, 'contact', leadId))
  if (existing) return { providerId: existing.provider_id, providerNumber: null, outcome: 'already_linked', matchedBy: null }
  const lead = await ctx.tx((tx) => findLeadContact(tx, leadId))
  if (!lead) throw new AppError('not_found', `No lead or client ${leadId}; see leads.list or clients.list.`)
  const fields: ContactFields = { name: lead.name, email: lead.email, phone: lead.phone, abn: null }
  const found = ctx.keep(await provider.findContact(auth, fields))
  if (found) {
    const by = matchedBy(fields, found)
    const link = await ctx.link('contact', leadId, { provider_id: found.providerId, provider_number: null, linked_by: `matched_${by}` })
    return { providerId: link.provider_id, providerNumber: null, outcome: 'matched', matchedBy: by }
  }
  const made = ctx.keep(await provider.createContact(auth, fields, idempotencyKey(connection.id, 'contact', leadId)))
  const link = await ctx.link('contact', leadId, { provider_id: made.providerId, provider_number: null, linked_by: 'created' })
  return { providerId: link.provider_id, providerNumber: null, outcome: 'created', matchedBy: null }
}

export async function pushInvoice(ctx: PushContext, invoiceId: string): Promise<{ invoice: Pushed; contact: Pushed }> {
  const { connection, provider, auth } = ctx.access
  const { invoice, lines } = await ctx.tx((tx) => findInvoiceForPush(tx, invoiceId))
  if (!invoice) throw new AppError('not_found', `No invoice ${invoiceId}; see invoicing.list.`)
  if (invoice.status === 'Void') throw new AppError('conflict', `Invoice ${invoice.invoice_number} is void; a void invoice is not sent to ${PROVIDER_NAMES[connection.provider]}.`)
  const entity: AccountingEntity = invoice.kind === 'credit_note' ? 'credit_note' : 'invoice'
  const contact = await pushContact(ctx, invoice.lead_id)
  const existing = await ctx.tx((tx) => findLink(tx, connection.id, entity, invoiceId))
  if (existing) return { contact, invoice: { providerId: existing.provider_id, providerNumber: existing.provider_number, outcome: 'already_linked', matchedBy: null } }
  const fields = {
    number: invoice.invoice_number,
    contactProviderId: contact.providerId,
    issueDate: invoice.issue_date,
    dueDate: invoice.due_date,
    authorised: invoice.status !== 'Draft',
    lines: lines.map((l) => ({
      description: l.description,
      quantity: Number(l.quantity),
      // Credit note lines are stored negative; the provider's credit note carries them positive.
      unitAmountCents: entity === 'credit_note' ? Math.abs(Number(l.unit_price_cents)) : Number(l.unit_price_cents),
      gstFree: Number(l.gst_cents) === 0 && Number(l.total_cents) !== 0,
    })),
  }
  const key = idempotencyKey(connection.id, entity, invoiceId)
  const made = ctx.keep(entity === 'credit_note' ? await provider.createCreditNote(auth, fields, key) : await provider.createInvoice(auth, fields, key))
  const link = await ctx.link(entity, invoiceId, { provider_id: made.providerId, provider_number: made.number ?? invoice.invoice_number, linked_by: 'created' })
  return { contact, invoice: { providerId: link.provider_id, providerNumber: link.provider_number, outcome: 'created', matchedBy: null } }
}

export async function pushEntity(deps: Deps, principal: Principal, input: Static<typeof PushEntityInput>) {
  if (input.entity_type === 'job') {
    throw validationError(['entity_type: accounting packages keep no jobs; push the job\'s invoice (entity_type invoice) or its client (entity_type lead)'])
  }
  const access = await connectionAccess(deps, principal.companyId, input.connection_id)
  if (access.connection.status !== 'active' && access.connection.status !== 'error') throw new AppError('conflict', `Connection ${access.connection.id} is ${access.connection.status}; connect again with integrations.connect.`)
  const ctx = new PushContext(deps, principal.companyId, access)
  const entity: AccountingEntity = input.entity_type === 'lead' ? 'contact' : 'invoice'
  try {
    const result = input.entity_type === 'lead'
      ? { invoice: null, contact: await pushContact(ctx, input.entity_id) }
      : await pushInvoice(ctx, input.entity_id)
    const main = result.invoice ?? result.contact
    await keepLimits(deps, principal.companyId, access.connection.id, ctx.limits)
    const connection = await ctx.tx(async (tx) => {
      await markPushed(tx, principal.companyId, access.connection.id, entity, { ok: true, error: null }, deps.clock.now())
      return (await findConnection(tx, access.connection.id))!
    })
    return {
      entity_type: input.entity_type,
      entity_id: input.entity_id,
      provider_id: main.providerId,
      provider_number: main.providerNumber,
      outcome: main.outcome,
      matched_by: main.matchedBy,
      contact: result.invoice ? { provider_id: result.contact.providerId, outcome: result.contact.outcome } : null,
      rate_limits: presentConnection(deps.config, connection).rate_limits,
    }
  } catch (error) {
    if (!(error instanceof ProviderCallError)) throw error
    await keepLimits(deps, principal.companyId, access.connection.id, error.limits ?? ctx.limits)
    const name = PROVIDER_NAMES[access.connection.provider]
    const message = `${name}: ${error.message}`
    await ctx.tx(async (tx) => {
      const now = deps.clock.now()
      await markPushed(tx, principal.companyId, access.connection.id, entity, { ok: false, error: message }, now)
      // 401/403: the grant no longer covers this (revoked, or the organisation disconnected).
      await recordConnectionError(tx, access.connection.id, message, error.status === 401 || error.status === 403 ? 'error' : access.connection.status, now)
    })
    if (error.retryable) {
      throw new AppError('rate_limited', `${message}. Nothing was duplicated: push again${error.retryAfterSeconds ? ` after ${error.retryAfterSeconds} s` : ' in a minute'} and the same record is used.`,
        error.retryAfterSeconds ? { retry_after: error.retryAfterSeconds } : {})
    }
    throw new AppError('conflict', `${name} refused the record (${error.message}). Correct it here and push again.`)
  }
}

/**
 * One lead's contact pushed to one connection now (workflows.sync_contact): what happened, never a
 * throw for the provider's or the connection's refusal, which comes back as failed with the reason.
 */
export async function pushContactNow(deps: Deps, companyId: string, connectionId: string, leadId: string): Promise<{ status: Outcome | 'failed'; providerId: string | null; error: string | null }> {
  let ctx: PushContext | null = null
  try {
    ctx = new PushContext(deps, companyId, await connectionAccess(deps, companyId, connectionId))
    const pushed = await pushContact(ctx, leadId)
    await keepLimits(deps, companyId, connectionId, ctx.limits)
    await ctx.tx((tx) => markPushed(tx, companyId, connectionId, 'contact', { ok: true, error: null }, deps.clock.now()))
    return { status: pushed.outcome, providerId: pushed.providerId, error: null }
  } catch (error) {
    if (!(error instanceof ProviderCallError) && !(error instanceof AppError)) throw error
    const message = error instanceof ProviderCallError && ctx ? `${PROVIDER_NAMES[ctx.access.connection.provider]}: ${error.message}` : error.message
    if (ctx) {
      await keepLimits(deps, companyId, connectionId, (error instanceof ProviderCallError ? error.limits : null) ?? ctx.limits)
      await ctx.tx((tx) => markPushed(tx, companyId, connectionId, 'contact', { ok: false, error: message }, deps.clock.now()))
    }
    return { status: 'failed', providerId: null, error: message }
  }
}
