// The sync workflow's steps, one batch at a time. Out (ours -> provider): our records not yet linked,
// in (created_at, id) order, each pushed through push.ts (match first, Idempotency-Key from the
// connection, entity and our id) and its link stored in the same transaction that moves the cursor
// past it; a pass that reaches the end clears the cursor, so the next round looks again from the
// start (a record that failed is tried again then). In (provider -> ours): the provider's records
// changed since the last pass, a page at a time; each record is stored with its link and the cursor
// (page and position) in one transaction, so a record is never taken twice.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { withTenant } from '../../db/sql.js'
import { ProviderCallError, type AccountingEntity, type ProviderContact, type ProviderPayment, type RateLimits } from '../../providers/accounting/provider.js'
import { insertLead } from '../leads/queries.js'
import { recordPayment } from '../payments/record.js'
import { idempotencyKey, PushContext, pushContact, pushInvoice } from './push.js'
import { insertLink } from './queries.js'
import {
  matchingLead, ourIdOf, readCursor, saveCursor, unlinkedClients, unlinkedInvoices, unlinkedPayments, type After, type OurRecord, type SyncDirection,
} from './queries/sync.js'
import type { ConnectionAccess } from './tokens.js'
import type { SyncBatchResult, SyncStep } from './workflows/integration-sync.js'

/** A pull looks this far back before the last pass began, so a clock apart from the provider's loses nothing (records seen again are linked: no-ops). */
const PULL_OVERLAP_MS = 5 * 60_000

export interface StepContext {
  deps: Deps
  companyId: string
  access: ConnectionAccess
  batchSize: number
  /** Called after each record, so the activity's heartbeat shows it is alive. */
  progress: () => void
  /** Keeps what the provider said is left of its limits (the caller stores it). */
  push: PushContext
}

type StepResult = Omit<SyncBatchResult, 'waitMs' | 'stopped'>
const connectionOf = (ctx: StepContext) => ctx.access.connection.id
const tenant = <T>(ctx: StepContext, fn: (tx: postgres.TransactionSql) => Promise<T>) => withTenant(ctx.deps.db, ctx.companyId, fn)
const moveCursor = (ctx: StepContext, tx: postgres.TransactionSql, entity: AccountingEntity, direction: SyncDirection, cursor: unknown, done: number, error: string | null = null) =>
  saveCursor(tx, ctx.companyId, connectionOf(ctx), entity, direction, { cursor: cursor === null ? null : JSON.stringify(cursor), done, error }, ctx.deps.clock.now())
const cursorOf = async <T>(ctx: StepContext, entity: AccountingEntity, direction: SyncDirection): Promise<T | null> => {
  const text = await tenant(ctx, (tx) => readCursor(tx, connectionOf(ctx), entity, direction))
  return text ? (JSON.parse(text) as T) : null
}

/** A record the provider refused for good (validation): counted as failed, its error kept; the pass moves on. */
const refusedForGood = (error: unknown) =>
  (error instanceof ProviderCallError && !error.retryable && error.status !== 401 && error.status !== 403) || (error instanceof AppError && error.code !== 'rate_limited')

async function pushPass(
  ctx: StepContext, entity: AccountingEntity,
  list: (tx: postgres.TransactionSql, after: After | null, limit: number) => Promise<OurRecord[]>,
  push: (pushCtx: PushContext, record: OurRecord) => Promise<{ linkedBefore: boolean }>,
): Promise<StepResult> {
  const after = await cursorOf<After>(ctx, entity, 'push')
  const records = await tenant(ctx, (tx) => list(tx, after, ctx.batchSize))
  let done = 0
  let failed = 0
  let lastError: string | null = null
  for (const record of records) {
    const here: After = { at: record.at, id: record.id }
    const pushCtx = new PushContext(ctx.deps, ctx.companyId, ctx.access, async (tx, linked, ourId) => {
      if (linked === entity && ourId === record.id) await moveCursor(ctx, tx, entity, 'push', here, 1)
    })
    try {
      const { linkedBefore } = await push(pushCtx, record)
      // Linked meanwhile (integrations.push_entity): no link was stored here, so the cursor moves on its own.
      if (linkedBefore) await tenant(ctx, (tx) => moveCursor(ctx, tx, entity, 'push', here, 0))
      done++
    } catch (error) {
      if (!refusedForGood(error)) throw error
      failed++
      lastError = `${entity} ${record.id}: ${(error as Error).message}`
      await tenant(ctx, (tx) => moveCursor(ctx, tx, entity, 'push', here, 0, lastError))
    } finally {
      ctx.push.limits = pushCtx.limits ?? ctx.push.limits
      ctx.progress()
    }
  }
  if (records.length < ctx.batchSize) {
    await tenant(ctx, (tx) => moveCursor(ctx, tx, entity, 'push', null, 0, lastError))
    return { more: false, done, failed }
  }
  return { more: true, done, failed }
}

interface PullCursor { since: string | null; page: number; skip: number; started: string | null }

async function pullPass<T extends { providerId: string }>(
  ctx: StepContext, entity: AccountingEntity,
  fetchPage: (since: string | null, page: number) => Promise<{ records: T[]; more: boolean }>,
  take: (record: T, advance: (tx: postgres.TransactionSql) => Promise<void>) => Promise<'stored' | 'skipped'>,
): Promise<StepResult> {
  const cursor = (await cursorOf<PullCursor>(ctx, entity, 'pull')) ?? { since: null, page: 1, skip: 0, started: null }
  const started = cursor.started ?? ctx.deps.clock.now().toISOString()
  const page = await fetchPage(cursor.since, cursor.page)
  let done = 0
  let failed = 0
  let lastError: string | null = null
  for (const [i, record] of page.records.entries()) {
    if (i < cursor.skip) continue
    const here: PullCursor = { ...cursor, skip: i + 1, started }
    try {
      const taken = await take(record, (tx) => moveCursor(ctx, tx, entity, 'pull', here, 1))
      if (taken === 'skipped') await tenant(ctx, (tx) => moveCursor(ctx, tx, entity, 'pull', here, 0))
      else done++
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      failed++
      lastError = `${entity} ${record.providerId}: ${error.message}`
      await tenant(ctx, (tx) => moveCursor(ctx, tx, entity, 'pull', here, 0, lastError))
    }
    ctx.progress()
  }
  const next: PullCursor = page.more
    ? { since: cursor.since, page: cursor.page + 1, skip: 0, started }
    : { since: new Date(Date.parse(started) - PULL_OVERLAP_MS).toISOString(), page: 1, skip: 0, started: null }
  await tenant(ctx, (tx) => moveCursor(ctx, tx, entity, 'pull', next, 0, lastError))
  return { more: page.more, done, failed }
}

/** A provider contact becomes ours only when none of ours is the same person (linked, or matched by email, then name). */
async function takeContact(ctx: StepContext, contact: ProviderContact, advance: (tx: postgres.TransactionSql) => Promise<void>) {
  return tenant(ctx, async (tx) => {
    const now = ctx.deps.clock.now()
    if (await ourIdOf(tx, connectionOf(ctx), 'contact', contact.providerId)) return 'skipped' as const
    const match = await matchingLead(tx, contact)
    // No lead.created event: this is a customer the business already has, not an enquiry to answer.
    const ourId = match?.id ?? (await insertLead(tx, ctx.companyId, {
      name: contact.name, phone: contact.phone, email: contact.email, service_type: null, priority: 'Normal', message: null, address: null, suburb: null, source: 'xero',
    }, now)).id
    await insertLink(tx, ctx.companyId, connectionOf(ctx), 'contact', ourId, { provider_id: contact.providerId, provider_number: null, linked_by: match ? `matched_${match.by}` : 'pulled' }, now)
    await advance(tx)
    return 'stored' as const
  })
}

/** A provider payment on one of our linked invoices, recorded through the payments domain once (provider id unique). */
async function takePayment(ctx: StepContext, payment: ProviderPayment, advance: (tx: postgres.TransactionSql) => Promise<void>) {
  return withTenantEmitting(ctx.deps, ctx.companyId, async (tx, emit) => {
    if (await ourIdOf(tx, connectionOf(ctx), 'payment', payment.providerId)) return 'skipped' as const
    const invoiceId = payment.invoiceProviderId && (await ourIdOf(tx, connectionOf(ctx), 'invoice', payment.invoiceProviderId))
    if (!invoiceId || payment.amountCents <= 0) return 'skipped' as const // not on one of our invoices
    const recorded = await recordPayment(ctx.deps, tx, ctx.companyId, {
      invoiceId, amountCents: payment.amountCents, surchargeCents: 0, method: 'other', provider: ctx.access.connection.provider, providerPaymentId: payment.providerId,
      reference: payment.reference, receivedAt: new Date(`${payment.date}T00:00:00Z`), alreadyTaken: false,
    }, emit)
    await insertLink(tx, ctx.companyId, connectionOf(ctx), 'payment', recorded.payment.id, { provider_id: payment.providerId, provider_number: null, linked_by: 'pulled' }, ctx.deps.clock.now())
    await advance(tx)
    return 'stored' as const
  })
}

const pageOf = <T>(ctx: StepContext, result: { value: { records: T[]; more: boolean }; limits: RateLimits | null }) => ctx.push.keep(result)

export const SYNC_STEP_ENTITY: Record<SyncStep, { entity: AccountingEntity; direction: SyncDirection }> = {
  contacts_out: { entity: 'contact', direction: 'push' },
  contacts_in: { entity: 'contact', direction: 'pull' },
  invoices_out: { entity: 'invoice', direction: 'push' },
  credit_notes_out: { entity: 'credit_note', direction: 'push' },
  payments_in: { entity: 'payment', direction: 'pull' },
  payments_out: { entity: 'payment', direction: 'push' },
}

export function runSyncStep(ctx: StepContext, step: SyncStep): Promise<StepResult> {
  const { provider, auth } = ctx.access
  const connectionId = connectionOf(ctx)
  const query = (since: string | null, page: number) => ({ since, page, pageSize: ctx.batchSize })
  switch (step) {
    case 'contacts_out':
      return pushPass(ctx, 'contact', (tx, after, limit) => unlinkedClients(tx, connectionId, after, limit),
        async (p, r) => ({ linkedBefore: (await pushContact(p, r.id)).outcome === 'already_linked' }))
    case 'invoices_out':
    case 'credit_notes_out': {
      const entity = step === 'invoices_out' ? 'invoice' as const : 'credit_note' as const
      return pushPass(ctx, entity, (tx, after, limit) => unlinkedInvoices(tx, connectionId, entity, after, limit),
        async (p, r) => ({ linkedBefore: (await pushInvoice(p, r.id)).invoice.outcome === 'already_linked' }))
    }
    case 'payments_out': {
      const accountCode = ctx.deps.config.XERO_PAYMENT_ACCOUNT_CODE
      return pushPass(ctx, 'payment', (tx, after, limit) => unlinkedPayments(tx, connectionId, ctx.access.connection.provider, after, limit),
        async (p, r) => {
          const out = r as Awaited<ReturnType<typeof unlinkedPayments>>[number]
          const made = p.keep(await provider.createPayment(auth, {
            invoiceProviderId: out.invoice_provider_id, amountCents: Number(out.amount_cents), date: out.received_at.toISOString().slice(0, 10), accountCode,
            reference: out.reference ?? `Payment on ${out.invoice_number}`,
          }, idempotencyKey(connectionId, 'payment', out.id)))
          await p.link('payment', out.id, { provider_id: made.providerId, provider_number: null, linked_by: 'created' })
          return { linkedBefore: false }
        })
    }
    case 'contacts_in':
      return pullPass(ctx, 'contact', async (since, page) => pageOf(ctx, await provider.listContacts(auth, query(since, page))), (c, advance) => takeContact(ctx, c, advance))
    case 'payments_in':
      return pullPass(ctx, 'payment', async (since, page) => pageOf(ctx, await provider.listPayments(auth, query(since, page))), (p, advance) => takePayment(ctx, p, advance))
  }
}
