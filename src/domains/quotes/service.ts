// Quotes: create (Draft, gapless number), update (totals always recomputed from line items), list,
// send (public link, optional SMS/email, lead -> Quoted).
import { randomBytes } from 'node:crypto'
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound, validationError } from '../../core/errors.js'
import { belowOneCent, computeTotals } from '../../core/gst.js'
import { centsToDollars, formatDollars, hasAtMostDecimals, parseDollars } from '../../core/money.js'
import { pageEnvelope, pageFrom } from '../../core/paging.js'
import { addDays } from '../../core/period.js'
import { companyToday } from '../../core/company-time.js'
import { isAuMobile } from '../../core/phone.js'
import { withTenant } from '../../db/sql.js'
import { findLead } from '../leads/queries.js'
import { findServices } from '../services/service.js'
import { reserveMessageDelivery, type QueuedMessage } from '../comms/deliver.js'
import { withTenantEmitting, type Emit } from '../../core/reactions.js'
import type { QuoteChanged, QuoteDeliveryAnswer, QuoteDeliveryQueued } from './events.js'
import {
  findQuote, findSenderCompany, insertQuote, lineItemsFor, listQuoteRows, nextQuoteNumber, presentQuote, publicQuoteUrl, replaceLineItems,
  updateQuoteRow, updateQuoteSent, updateQuoteTotals, type QuoteRow,
} from './queries.js'
import type { CreateQuoteInput, ListQuotesInput, LineItemInput, QuoteStatus, SendQuoteInput, UpdateQuoteInput } from './schema.js'
import { isBehind, moveLeadStatus } from '../leads/status.js'
import { escapeHtml } from '../../core/html-escape.js'
import { customerEmail, customerSms, firstNameOf } from '../comms/customer-message.js'
import { messageViews } from '../comms/preview.js'
import { readSettings } from '../invoicing/settings.js'
import { openJobOnAcceptance } from '../jobs/on-acceptance.js'

type LineInput = Static<typeof LineItemInput>
const DEFAULT_VALIDITY_DAYS = 30

interface PricedLine {
  description: string
  quantity: number
  unitPriceCents: number
  unitCostCents: number | null
  serviceId: string | null
}

/** Resolves catalogue references and validates money; every problem is reported at once. */
async function priceLines(tx: postgres.TransactionSql, lines: LineInput[]): Promise<PricedLine[]> {
  const services = await findServices(tx, [...new Set(lines.map((l) => l.service_id).filter((id): id is string => !!id))])
  const problems: string[] = []
  const priced = lines.map((line, i) => {
    const service = line.service_id ? services.get(line.service_id) : undefined
    if (line.service_id && !service) problems.push(`line_items.${i}.service_id: no such service`)
    else if (service && !service.active) problems.push(`line_items.${i}.service_id: service '${service.name}' is inactive`)
    const description = line.description ?? service?.name
    if (!description) problems.push(`line_items.${i}.description: is required without a service_id`)
    if (line.unitPrice === undefined && !service) problems.push(`line_items.${i}.unitPrice: is required without a service_id`)
    if (!hasAtMostDecimals(line.quantity, 3)) problems.push(`line_items.${i}.quantity: use at most three decimals`)
    const price = (v: number | undefined, field: string) => {
      if (v === undefined) return null
      try {
        return parseDollars(v, `line_items.${i}.${field}`)
      } catch (e) {
        problems.push(...((e as AppError).extra.messages as string[]))
        return 0
      }
    }
    const unitPriceCents = price(line.unitPrice, 'unitPrice') ?? Number(service?.unit_price_cents ?? 0)
    const tiny = hasAtMostDecimals(line.quantity, 3) ? belowOneCent(`line_items.${i}`, { quantity: line.quantity, unitPriceCents }) : null
    if (tiny) problems.push(tiny)
    return {
      description: description ?? '',
      quantity: line.quantity,
      unitPriceCents,
      unitCostCents: price(line.unit_cost, 'unit_cost'),
      serviceId: line.service_id ?? null,
    }
  })
  if (problems.length) throw validationError(problems)
  return priced
}

async function writeLines(tx: postgres.TransactionSql, companyId: string, quoteId: string, lines: PricedLine[]) {
  const totals = computeTotals(lines)
  await replaceLineItems(tx, quoteId, lines.map((l, i) => ({
    company_id: companyId, quote_id: quoteId, position: i + 1, description: l.description, quantity: l.quantity,
    unit_price_cents: l.unitPriceCents, total_cents: totals.lineTotalsCents[i]!, unit_cost_cents: l.unitCostCents, service_id: l.serviceId,
  })))
  return totals
}

/** The deposit rule from deposit_percent / deposit_amount (0 means none); undefined when neither is given. */
function depositRule(input: { deposit_percent?: number; deposit_amount?: number }): { percent: number | null; cents: number | null } | undefined {
  if (input.deposit_percent !== undefined && input.deposit_amount !== undefined) {
    throw validationError(['deposit_percent: give deposit_percent or deposit_amount, not both'])
  }
  if (input.deposit_percent !== undefined) {
    if (!hasAtMostDecimals(input.deposit_percent, 2)) throw validationError(['deposit_percent: use at most two decimals'])
    return { percent: Math.round(input.deposit_percent * 100) / 100 || null, cents: null }
  }
  if (input.deposit_amount !== undefined) return { percent: null, cents: parseDollars(input.deposit_amount, 'deposit_amount') || null }
  return undefined
}

function assertDepositFits(totalCents: number, rule: { cents: number | null }) {
  if (rule.cents !== null && rule.cents > totalCents) {
    throw validationError([`deposit_amount: ${centsToDollars(rule.cents).toFixed(2)} is more than the quote total of ${centsToDollars(totalCents).toFixed(2)}`])
  }
}

export async function loadQuote(deps: Deps, tx: postgres.TransactionSql, id: string) {
  const row = await findQuote(tx, id, await companyToday(tx, deps.clock.now()))
  if (!row) throw notFound('Quote')
  const lines = await lineItemsFor(tx, [id])
  return presentQuote(row, lines.get(id)!, deps.urls.siteRoot)
}

export async function createQuote(deps: Deps, principal: Principal, input: Static<typeof CreateQuoteInput>) {
  const now = deps.clock.now()
  return withTenantEmitting(deps, principal.companyId, async (tx, emit) => {
    const today = await companyToday(tx, now)
    if (input.valid_until && input.valid_until < today) throw validationError(['valid_until: must be today or later'])
    const lead = await findLead(tx, input.lead_id)
    if (!lead) throw notFound('Lead')
    const lines = await priceLines(tx, input.line_items)
    const number = await nextQuoteNumber(tx, principal.companyId)
    const totals = computeTotals(lines)
    const deposit = depositRule(input) ?? { percent: (await readSettings(tx)).default_deposit_percent, cents: null }
    assertDepositFits(totals.totalCents, deposit)
    const id = await insertQuote(tx, principal.companyId, {
      lead_id: lead.id, quote_number: number, subtotal_cents: totals.subtotalCents, gst_cents: totals.gstCents,
      total_cents: totals.totalCents, valid_until: input.valid_until ?? addDays(today, DEFAULT_VALIDITY_DAYS), notes: input.notes ?? null,
      public_token: randomBytes(24).toString('base64url'), deposit_percent: deposit.percent, deposit_cents: deposit.cents,
    }, now)
    await writeLines(tx, principal.companyId, id, lines)
    const quote = await loadQuote(deps, tx, id)
    await emit({ companyId: principal.companyId, type: 'quote.created', entityType: 'quote', entityId: quote.id, payload: { quote }, at: now })
    return { quote }
  })
}

/** Status moves through quotes.update: any, as the spec says, except out of Accepted (a signed quote stands). */
export function assertQuoteUpdateMove(from: QuoteStatus, to: QuoteStatus) {
  if (from === to) return
  if (from === 'Accepted') {
    throw new AppError('conflict', `Quote is Accepted and cannot move to ${to}; create a new quote instead.`, { current_status: from, requested_status: to })
  }
}

export async function updateQuote(deps: Deps, principal: Principal, input: Static<typeof UpdateQuoteInput>) {
  const now = deps.clock.now()
  const deposit = depositRule(input)
  if (input.status === undefined && input.line_items === undefined && input.total === undefined && input.notes === undefined && input.valid_until === undefined && !deposit) {
    throw validationError(['body: give at least one field to change besides quote_id'])
  }
  return withTenantEmitting(deps, principal.companyId, async (tx, emit) => {
    const current = await findQuote(tx, input.quote_id, await companyToday(tx, now), { forUpdate: true })
    if (!current) throw notFound('Quote')
    const target = input.status ?? current.status
    assertQuoteUpdateMove(current.status, target)
    let totalCents = Number(current.total_cents)
    if (input.line_items) {
      if (current.status === 'Accepted' || current.status === 'Declined') {
        throw new AppError('conflict', `Line items of a ${current.status} quote cannot change; create a new quote.`, { current_status: current.status })
      }
      const lines = await priceLines(tx, input.line_items)
      const totals = computeTotals(lines)
      if (input.total !== undefined && parseDollars(input.total, 'total') !== totals.totalCents) {
        throw validationError([`total: ${input.total} does not match the line items (${centsToDollars(totals.totalCents)} incl. GST)`])
      }
      await writeLines(tx, principal.companyId, current.id, lines)
      await updateQuoteTotals(tx, current.id, totals)
      totalCents = totals.totalCents
    } else if (input.total !== undefined && parseDollars(input.total, 'total') !== totalCents) {
      throw validationError([`total: ${input.total} does not match the line items (${centsToDollars(totalCents)} incl. GST); totals are computed from line items`])
    }
    const changes: Record<string, unknown> = { updated_at: now }
    if (deposit) {
      if (current.status === 'Accepted') throw new AppError('conflict', 'The deposit of an Accepted quote cannot change (a client who accepts on the quote page is invoiced for it there); bill a different amount with invoicing.generate progress_claim.', { current_status: current.status })
      assertDepositFits(totalCents, deposit)
      Object.assign(changes, { deposit_percent: deposit.percent, deposit_cents: deposit.cents })
    } else if (current.deposit_cents !== null) assertDepositFits(totalCents, { cents: Number(current.deposit_cents) })
    if (input.notes !== undefined) changes.notes = input.notes
    if (input.valid_until !== undefined) changes.valid_until = input.valid_until
    if (target !== current.status || input.status === 'Expired') changes.status = target
    if (target === 'Accepted' && current.status !== 'Accepted') Object.assign(changes, { accepted_at: now })
    if (target === 'Declined' && current.status !== 'Declined') Object.assign(changes, { declined_at: now })
    if (target === 'Sent' && !current.sent_at) Object.assign(changes, { sent_at: now, sent_count: Math.max(1, current.sent_count) })
    await updateQuoteRow(tx, current.id, changes)
    if (target === 'Accepted' && current.status !== 'Accepted') await openJobOnAcceptance(tx, emit, principal.companyId, current, now)
    const quote = await loadQuote(deps, tx, current.id)
    if (target !== current.status) await onStatusChange(tx, emit, principal.companyId, current, quote, now)
    // What follows its send looks again now (accepted, declined, expired, validity moved), not at its next wake-up.
    if (target !== current.status || input.valid_until !== undefined) await emit(quoteChanged(principal.companyId, current, now))
    return { quote }
  })
}

/** Side effects of a status change, whoever made it (update, send, the public page). */
export async function onStatusChange(tx: postgres.TransactionSql, emit: Emit, companyId: string, before: QuoteRow, quote: ReturnType<typeof presentQuote>, now: Date) {
  if (quote.status === 'Sent' && before.status === 'Draft') {
    await emit({ companyId, type: 'quote.sent', entityType: 'quote', entityId: quote.id, payload: { quote }, at: now })
    await moveLeadStatus(tx, { companyId, leadId: before.lead_id, to: 'Quoted', by: 'quote', at: now, when: isBehind('Quoted') })
  }
  if (quote.status === 'Accepted') {
    await emit({ companyId, type: 'quote.accepted', entityType: 'quote', entityId: quote.id, payload: { quote }, at: now })
    await moveLeadStatus(tx, { companyId, leadId: before.lead_id, to: 'Won', by: 'quote', at: now, when: isBehind('Won') })
  }
}

export async function listQuotes(deps: Deps, principal: Principal, input: Static<typeof ListQuotesInput>) {
  const page = pageFrom(input)
  const { rows, total, lines } = await withTenant(deps.db, principal.companyId, async (tx) => {
    const { rows, total } = await listQuoteRows(tx, { status: input.status, leadId: input.lead_id }, page, await companyToday(tx, deps.clock.now()))
    return { rows, total, lines: await lineItemsFor(tx, rows.map((r) => r.id)) }
  })
  const quotes = rows.map((r) => presentQuote(r, lines.get(r.id)!, deps.urls.siteRoot))
  return { quotes, ...pageEnvelope(quotes, total, page) }
}

const SENDABLE: QuoteStatus[] = ['Draft', 'Sent', 'Viewed']

/** The quote's SMS and email as quotes.send sends them (and its dry run shows them). */
function quoteMessages(
  quote: ReturnType<typeof presentQuote>, lead: { id: string; name: string; phone: string | null; email: string | null }, businessName: string,
  url: string, sendCount: number, input: Static<typeof SendQuoteInput>,
): { messages: QueuedMessage[]; skipped: string[] } {
  const firstName = firstNameOf(lead.name)
  const about = `your quote ${quote.quoteNumber} from ${businessName} for ${formatDollars(quote.total)} incl. GST`
  const messages: QueuedMessage[] = []
  const skipped: string[] = []
  const base = { messageType: 'quote', leadId: lead.id, quoteId: quote.id }
  if (input.send_sms) {
    if (lead.phone && isAuMobile(lead.phone)) {
      messages.push({ ...base, channel: 'sms', to: lead.phone, idempotencyKey: `quote:${quote.id}:${sendCount}:sms`,
        body: customerSms({ firstName, note: input.message, about: `${about}: ${url}` }) })
    } else skipped.push('sms: the lead has no Australian mobile number')
  }
  if (input.send_email) {
    if (lead.email) {
      const email = customerEmail({
        firstName, note: input.message, signOff: businessName,
        about: `${about} is ready. View, accept or decline it here: ${url}`,
        aboutHtml: `${escapeHtml(about)} is ready: <a href="${escapeHtml(url)}">view, accept or decline it here</a>.`,
      })
      messages.push({ ...base, channel: 'email', to: lead.email, idempotencyKey: `quote:${quote.id}:${sendCount}:email`,
        subject: `Your quote ${quote.quoteNumber} from ${businessName}`, body: email.html, text: email.text })
    } else skipped.push('email: the lead has no email address')
  }
  return { messages, skipped }
}

export async function sendQuote(deps: Deps, principal: Principal, input: Static<typeof SendQuoteInput>) {
  const now = deps.clock.now()
  return withTenantEmitting(deps, principal.companyId, async (tx, emit, start) => {
    const current = await findQuote(tx, input.quote_id, await companyToday(tx, now), { forUpdate: true })
    if (!current) throw notFound('Quote')
    if (!SENDABLE.includes(current.status)) {
      throw new AppError('conflict', `A ${current.status} quote cannot be sent. Only Draft, Sent or Viewed quotes can.`, { current_status: current.status, allowed_from: SENDABLE })
    }
    const sendCount = current.sent_count + 1
    const lead = (await findLead(tx, current.lead_id))!
    const company = (await findSenderCompany(tx))!
    const url = publicQuoteUrl(deps.urls.siteRoot, current.public_token)
    // Composed before anything changes, from what the send does not change (number, total, lead),
    // so the dry run returns here with exactly the messages the real send queues below.
    const { messages, skipped } = quoteMessages(await loadQuote(deps, tx, current.id), lead, company.business_name, url, sendCount, input)
    if (input.dry_run) {
      return {
        quote: await loadQuote(deps, tx, current.id), public_url: url, dry_run: true, messages: await messageViews(tx, messages),
        delivery: { workflow_id: null, channels: messages.map((m) => m.channel), skipped }, follow_ups: null,
      }
    }

    const status = current.status === 'Draft' ? 'Sent' : current.status
    await updateQuoteSent(tx, current.id, status, sendCount, now)
    const quote = await loadQuote(deps, tx, current.id)
    await onStatusChange(tx, emit, principal.companyId, current, quote, now)
    if (current.status !== 'Draft') {
      await emit({ companyId: principal.companyId, type: 'quote.sent', entityType: 'quote', entityId: quote.id, payload: { quote, resent: true }, at: now })
    }
    // Counted against the month's limits now: over a limit, nothing is sent or changed.
    const delivery = messages.length
      ? await start(await reserveMessageDelivery(tx, { companyId: principal.companyId, subject: `quote-send:${quote.id}:${sendCount}`, messages, now }))
      : null
    // What followed the previous send looks again (it must stop even when nothing follows this one),
    // and the reactions queue this send's follow-ups, answering with the run.
    await emit(quoteChanged(principal.companyId, current, now))
    const queued: QuoteDeliveryQueued = { quoteId: current.id, sendNumber: sendCount, validUntil: current.valid_until, timeZone: company.time_zone }
    const answer = await emit({ companyId: principal.companyId, type: 'quote.delivery_queued', entityType: 'quote', entityId: current.id, payload: queued, at: now }) as QuoteDeliveryAnswer
    const followUps = answer.followUps ?? null
    return {
      quote, public_url: url, dry_run: false, messages: await messageViews(tx, messages),
      delivery: { workflow_id: delivery?.workflow_id ?? null, channels: messages.map((m) => m.channel), skipped },
      follow_ups: followUps && { workflow_id: followUps.workflowId, at: followUps.followUpsAt },
    }
  })
}

/** quote.changed (internal) for the quote's current send. */
export function quoteChanged(companyId: string, row: QuoteRow, at: Date) {
  const payload: QuoteChanged = { quoteId: row.id, sendNumber: row.sent_count }
  return { companyId, type: 'quote.changed' as const, entityType: 'quote', entityId: row.id, payload, at }
}
