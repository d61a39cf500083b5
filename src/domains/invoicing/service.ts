// Invoices of a job: progress claims while it is under way, the final invoice once it is Completed
// (the whole price and any extras, net of deposits and claims), reading and listing them.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound, validationError } from '../../core/errors.js'
import { hasAtMostDecimals, parseDollars } from '../../core/money.js'
import { pageEnvelope, pageFrom } from '../../core/paging.js'
import { companyToday } from '../../core/company-time.js'
import { withTenant } from '../../db/sql.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { findJob, type JobRow } from '../jobs/queries.js'
import { findQuote, lineItemsFor, type QuoteRow } from '../quotes/queries.js'
import {
  basisFromAmount, basisFromQuote, claimAmount, claimLines, claimPercent, finalLines, type Amounts, type BasisLine, type Invoiced, type PriorInvoice,
} from './allocation.js'
import { issueInvoice, type NewLine } from './issue.js'
import { invoicesOfJob, linesOf, listInvoiceRows, listJobExtras, paymentsActive, presentInvoice, type InvoiceRow } from './queries.js'
import type { GenerateInvoiceInput, ListInvoicesInput } from './schema.js'
import { sendInvoiceMessages, type InvoiceMessageRequest } from './send.js'
import { RollBack, rolledBack } from '../../core/dry-run.js'
import { loadInvoice, presentRow } from './load.js'
import { readSettings } from './settings.js'
import { paymentClaimStatement } from './sop.js'

export { loadInvoice, presentRow }

/** A quote's lines, each with its share of the quote's GST: what a deposit and a job's invoices split. */
export async function quoteBasis(tx: postgres.TransactionSql, quote: Pick<QuoteRow, 'id' | 'gst_cents'>): Promise<BasisLine[]> {
  const lines = (await lineItemsFor(tx, [quote.id])).get(quote.id)!
  return basisFromQuote(lines.map((l) => ({
    description: l.description, quantity: Number(l.quantity), unitPriceCents: Number(l.unit_price_cents), totalCents: Number(l.total_cents), position: l.position,
  })), Number(quote.gst_cents))
}

/** What the client agreed to pay for the job: the quote's lines with their GST shares, or the job's amount. */
async function basisOf(deps: Deps, tx: postgres.TransactionSql, job: JobRow): Promise<BasisLine[]> {
  if (job.quote_id) return quoteBasis(tx, (await findQuote(tx, job.quote_id, await companyToday(tx, deps.clock.now())))!)
  return job.amount_cents !== null && Number(job.amount_cents) > 0 ? basisFromAmount(job.title, Number(job.amount_cents)) : []
}

interface JobInvoices {
  invoiced: Invoiced
  prior: (PriorInvoice & { id: string })[]
  final: InvoiceRow | null
}

/** Earlier invoices of the job, void ones left out, each net of the credit notes against it. */
export async function jobInvoices(deps: Deps, tx: postgres.TransactionSql, job: JobRow): Promise<JobInvoices> {
  const rows = (await invoicesOfJob(tx, job.id, job.quote_id, await companyToday(tx, deps.clock.now()))).filter((r) => r.stored_status !== 'Void')
  const credits = new Map<string, Amounts>()
  for (const r of rows.filter((r) => r.kind === 'credit_note')) {
    const c = credits.get(r.credits_invoice_id!) ?? { subtotalCents: 0, gstCents: 0 }
    credits.set(r.credits_invoice_id!, { subtotalCents: c.subtotalCents + Number(r.subtotal_cents), gstCents: c.gstCents + Number(r.gst_cents) })
  }
  const claims = rows.filter((r) => r.kind === 'deposit' || r.kind === 'progress')
  const prior = claims.map((r) => {
    const c = credits.get(r.id) ?? { subtotalCents: 0, gstCents: 0 }
    return { id: r.id, number: r.invoice_number, kind: r.kind, subtotalCents: Number(r.subtotal_cents) - c.subtotalCents, gstCents: Number(r.gst_cents) - c.gstCents }
  })
  return {
    prior,
    final: rows.find((r) => r.kind === 'final') ?? null,
    invoiced: {
      subtotalCents: prior.reduce((a, p) => a + p.subtotalCents, 0),
      gstCents: prior.reduce((a, p) => a + p.gstCents, 0),
      percentClaimed: claims.reduce((a, r) => a + (r.claim?.percent ?? 0), 0),
      claimedPositions: new Set(claims.flatMap((r) => r.claim?.positions ?? [])),
    },
  }
}

function assertInvoiceable(job: JobRow, claim: boolean) {
  if (job.status === 'Cancelled') throw new AppError('conflict', 'This job is Cancelled, so it cannot be invoiced.', { current_status: job.status })
  if (!claim && job.status !== 'Completed') {
    throw new AppError('conflict', `The job is ${job.status}; its invoice needs a Completed job. Complete it first with jobs.complete (job_id ${job.id}), then call invoicing.generate again. To bill a stage of the work now, pass progress_claim (percent, amount or line_items).`, {
      current_status: job.status, requested: 'invoice', next_step: 'jobs.complete',
    })
  }
  if (claim && job.status === 'Completed') {
    throw new AppError('conflict', 'The job is Completed: generate its final invoice (invoicing.generate without progress_claim), which nets off the deposits and claims already invoiced.', { current_status: job.status })
  }
}

function claimLinesFor(basis: BasisLine[], invoiced: Invoiced, claim: NonNullable<Static<typeof GenerateInvoiceInput>['progress_claim']>, label: string): { lines: NewLine[]; record: Record<string, unknown> } {
  const given = (['percent', 'amount', 'line_items'] as const).filter((k) => claim[k] !== undefined)
  if (given.length !== 1) throw validationError([`progress_claim: give exactly one of percent, amount or line_items (got ${given.join(', ') || 'none'})`])
  if (!basis.length) throw new AppError('conflict', 'The job has no quote and no amount to claim against; give it an amount (jobs.update) or link a quote.', {})
  if (claim.line_items) {
    const chosen = claimLines(basis, invoiced, claim.line_items)
    return {
      lines: chosen.map((l) => ({ description: l.description, quantity: l.quantity, unitPriceCents: l.unitPriceCents, totalCents: l.totalCents, gstCents: l.gstCents, source: 'claim', sourcePosition: l.position })),
      record: { positions: chosen.map((l) => l.position), payment_claim: claim.payment_claim ?? false },
    }
  }
  if (claim.percent !== undefined && !hasAtMostDecimals(claim.percent, 2)) throw validationError(['progress_claim.percent: use at most two decimals'])
  const amounts = claim.percent !== undefined
    ? claimPercent(basis, invoiced, claim.percent)
    : claimAmount(basis, invoiced, parseDollars(claim.amount!, 'progress_claim.amount'))
  const what = claim.percent !== undefined ? `${claim.percent}% of ${label}` : `part of ${label}`
  return {
    lines: [{ description: `Progress claim: ${what}`, quantity: 1, unitPriceCents: amounts.subtotalCents, totalCents: amounts.subtotalCents, gstCents: amounts.gstCents, source: 'claim' }],
    record: claim.percent !== undefined ? { percent: claim.percent, payment_claim: claim.payment_claim ?? false } : { amount_cents: amounts.subtotalCents + amounts.gstCents, payment_claim: claim.payment_claim ?? false },
  }
}

/**
 * invoicing.generate. `send.purpose` is for the automations that invoice and then send the payment
 * link (workflows.trigger_invoice's dry run): the messages then say what that first send says.
 */
export async function generateInvoice(deps: Deps, principal: Principal, input: Static<typeof GenerateInvoiceInput>, send: { purpose?: InvoiceMessageRequest['purpose'] } = {}) {
  const now = deps.clock.now()
  // A dry run issues the invoice to compose its messages, then rolls everything back.
  return rolledBack(() => withTenantEmitting(deps, principal.companyId, async (tx, emit, start) => {
    const job = await findJob(tx, input.job_id, { forUpdate: true })
    if (!job) throw notFound('Job')
    assertInvoiceable(job, !!input.progress_claim)
    const settings = await readSettings(tx)
    const basis = await basisOf(deps, tx, job)
    const done = await jobInvoices(deps, tx, job)
    if (done.final) {
      throw new AppError('conflict', `This job already has its invoice ${done.final.invoice_number} (${done.final.status}). To change it, void it (POST /api/v1/invoices/${done.final.id}/void) and generate again, or issue a credit note.`, {
        invoice_id: done.final.id, invoice_number: done.final.invoice_number, invoice_status: done.final.status,
      })
    }
    const label = job.quote_number ? `quote ${job.quote_number}` : 'the job price'
    let lines: NewLine[]
    let claim: Record<string, unknown> | null = null
    let notes = input.notes ?? null
    if (input.progress_claim) {
      const made = claimLinesFor(basis, done.invoiced, input.progress_claim, label)
      lines = made.lines
      claim = made.record
      if (input.progress_claim.payment_claim) notes = [notes, paymentClaimStatement(settings.state)].filter(Boolean).join('\n\n')
    } else {
      const extras = await listJobExtras(tx, job.id)
      const built = finalLines(basis, extras.map((e) => ({
        description: e.description, quantity: Number(e.quantity), unitPriceCents: Number(e.unit_price_cents), totalCents: Number(e.total_cents),
      })), done.prior, !!job.quote_id)
      lines = built.map((l) => ({ ...l, sourceInvoiceId: done.prior.find((p) => p.number === l.sourceInvoiceNumber)?.id ?? null }))
      const total = lines.reduce((a, l) => a + l.totalCents + l.gstCents, 0)
      if (!lines.length || (total === 0 && !lines.some((l) => l.source === 'less_invoiced'))) {
        throw new AppError('conflict', 'There is nothing to invoice: the job has no quote, no amount and no extras. Give it an amount (jobs.update amount) or record extras (jobs.update add_extras).', {})
      }
    }
    const id = await issueInvoice(tx, {
      companyId: principal.companyId, leadId: job.lead_id, jobId: job.id, quoteId: job.quote_id, kind: claim ? 'progress' : 'final',
      lines, claim, notes, dueInDays: input.due_in_days ?? settings.payment_terms_days, sent: false, now,
    })
    const dryRun = input.dry_run ?? false
    const { delivery, messages } = await sendInvoiceMessages(deps, tx, start, {
      companyId: principal.companyId, invoiceId: id, sms: input.send_sms ?? false, email: input.send_email ?? false, purpose: send.purpose, now, dryRun,
    }, emit)
    const invoice = await loadInvoice(deps, tx, id)
    const answer = { invoice, invoice_number: invoice.invoiceNumber, total: invoice.total, payment_url: invoice.paymentUrl, dry_run: dryRun, messages, delivery }
    if (dryRun) throw new RollBack(answer)
    return answer
  }))
}

export async function getInvoice(deps: Deps, principal: Principal, id: string) {
  return withTenant(deps.db, principal.companyId, async (tx) => ({ invoice: await loadInvoice(deps, tx, id) }))
}

export async function listInvoices(deps: Deps, principal: Principal, input: Static<typeof ListInvoicesInput>) {
  const page = pageFrom(input)
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const { rows, total } = await listInvoiceRows(tx, { status: input.status, kind: input.kind, jobId: input.job_id }, page, await companyToday(tx, deps.clock.now()))
    const lines = await linesOf(tx, rows.map((r) => r.id))
    const active = await paymentsActive(tx, deps.payments.name)
    const invoices = rows.map((r) => presentInvoice(r, lines.get(r.id)!, deps.urls.siteRoot, active))
    return { invoices, ...pageEnvelope(invoices, total, page) }
  })
}
