// The client's side of an invoice: its page and PDF at an unguessable link (the token is the only
// credential), and the PDF attached to an invoice email. Reading the page changes nothing.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { notFound } from '../../core/errors.js'
import { companyToday } from '../../core/company-time.js'
import { withTenant } from '../../db/sql.js'
import { withTenantEmitting, type Emit } from '../../core/reactions.js'
import type { EmailAttachment } from '../../providers/email/provider.js'
import type { InvoiceDocument } from './document.js'
import { renderInvoicePdf } from './pdf.js'
import { findInvoice, findInvoiceByToken, type InvoiceRow } from './queries.js'
import { findBuyer, findInvoiceCompanyByToken, findSeller } from './queries/parties.js'
import { presentRow } from './load.js'
import { readSettings } from './settings.js'

/** The company an invoice token belongs to; anything that cannot be a token is not_found before the database. */
export async function invoiceCompany(deps: Deps, token: string): Promise<string> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) throw notFound('Invoice')
  const companyId = await findInvoiceCompanyByToken(deps.db.app, token)
  if (!companyId) throw notFound('Invoice')
  return companyId
}

export async function invoiceDocument(deps: Deps, tx: postgres.TransactionSql, row: InvoiceRow): Promise<InvoiceDocument> {
  const company = await findSeller(tx)
  const lead = await findBuyer(tx, row.lead_id)
  const settings = await readSettings(tx)
  const invoice = await presentRow(deps, tx, row)
  if (settings.payment_instructions) invoice.notes = [invoice.notes, `How to pay: ${settings.payment_instructions}`].filter(Boolean).join('\n\n')
  return {
    invoice,
    seller: { name: company!.business_name, abn: company!.abn, address: null, phone: company!.phone, email: company!.contact_email },
    buyer: { name: lead!.name, abn: null, address: [lead!.address, lead!.suburb].filter(Boolean).join(', ') || null, phone: lead!.phone, email: lead!.email },
    cardSurchargePercent: settings.card_surcharge_percent,
    timeZone: company!.time_zone,
  }
}

/** Runs fn on the invoice behind a public token, in its company's transaction, with the row locked. */
export async function withPublicInvoice<T>(deps: Deps, token: string, fn: (tx: postgres.TransactionSql, row: InvoiceRow, companyId: string, emit: Emit) => Promise<T>): Promise<T> {
  const companyId = await invoiceCompany(deps, token)
  return withTenantEmitting(deps, companyId, async (tx, emit) => {
    const row = await findInvoiceByToken(tx, token, await companyToday(tx, deps.clock.now()))
    if (!row) throw notFound('Invoice')
    return fn(tx, row, companyId, emit)
  })
}

export async function publicInvoiceDocument(deps: Deps, token: string): Promise<InvoiceDocument> {
  return withPublicInvoice(deps, token, (tx, row) => invoiceDocument(deps, tx, row))
}

export async function publicInvoicePdf(deps: Deps, token: string): Promise<{ filename: string; pdf: Buffer }> {
  const doc = await publicInvoiceDocument(deps, token)
  return { filename: `${doc.invoice.invoiceNumber}.pdf`, pdf: await renderInvoicePdf(doc) }
}

/** The PDF for an invoice email, rendered at send time from the invoice as it is then. */
export async function invoicePdfAttachment(deps: Deps, companyId: string, invoiceId: string): Promise<EmailAttachment> {
  const doc = await withTenant(deps.db, companyId, async (tx) => {
    const row = await findInvoice(tx, invoiceId, await companyToday(tx, deps.clock.now()))
    if (!row) throw notFound('Invoice')
    return invoiceDocument(deps, tx, row)
  })
  return { filename: `${doc.invoice.invoiceNumber}.pdf`, contentType: 'application/pdf', content: await renderInvoicePdf(doc) }
}
