// One invoice as the API presents it. Apart from service.ts because sending (send.ts) reads the
// invoice too, and service.ts queues sends: the two would otherwise import each other.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { notFound } from '../../core/errors.js'
import { companyToday } from '../../core/company-time.js'
import type { Invoice } from './document.js'
import { findInvoice, linesOf, paymentsActive, presentInvoice, type InvoiceRow } from './queries.js'

export async function loadInvoice(deps: Deps, tx: postgres.TransactionSql, id: string): Promise<Invoice> {
  const row = await findInvoice(tx, id, await companyToday(tx, deps.clock.now()))
  if (!row) throw notFound('Invoice')
  return presentRow(deps, tx, row)
}

export async function presentRow(deps: Deps, tx: postgres.TransactionSql, row: InvoiceRow): Promise<Invoice> {
  const lines = await linesOf(tx, [row.id])
  return presentInvoice(row, lines.get(row.id)!, deps.urls.siteRoot, await paymentsActive(tx, deps.payments.name))
}
