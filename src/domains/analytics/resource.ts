// service://financials: revenue (the last 30 days' summary), conversion rates (leads of the last
// 30 days) and invoice status (every invoice now, by the status the invoice list shows).
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars } from '../../core/money.js'
import { localDate } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { funnel } from './detailed.js'
import { readFinancials } from './financials.js'
import { listInvoiceStatus } from './queries/financials.js'
import type { FinancialsResource } from './schema.js'
import { companyTimeZone, lookback } from './window.js'

async function invoiceStatus(tx: postgres.TransactionSql, today: string) {
  const rows = await listInvoiceStatus(tx, today)
  return rows.map((r) => ({ status: r.status, count: r.n, total: centsToDollars(Number(r.total)), balance: centsToDollars(Number(r.balance)) }))
}

export async function readFinancialsResource(deps: Deps, principal: Principal): Promise<Static<typeof FinancialsResource>> {
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const timeZone = await companyTimeZone(tx)
    return {
      financials: await readFinancials(tx, now, { days: 30 }),
      conversion: await funnel(tx, lookback(now, 30, timeZone)),
      invoice_status: await invoiceStatus(tx, localDate(now, timeZone)),
    }
  })
}
