// Operators running several companies. Which companies a key's user belongs to comes from one
// SECURITY DEFINER call (names only); each company's figures are then read in that company's own
// transaction, so no transaction ever holds two companies' rows (docs/decisions.md, "Operators").
import { AppError } from '../../core/errors.js'
import { centsToDollars } from '../../core/money.js'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { forgetCompanyKeys } from '../../core/key-cache.js'
import { withTenant } from '../../db/sql.js'
import {
  companyFigures, grantMembership, operatorCompanies, subcontractorsWithAbn, switchKeyCompany,
  type CompanyFigures, type OperatorCompany, type SupplierRow,
} from './queries.js'

async function companiesOf(deps: Deps, principal: Principal): Promise<OperatorCompany[]> {
  return operatorCompanies(deps.db.app, principal.keyId)
}

const notMember = (companyId: string) =>
  new AppError('forbidden', `This key's user does not belong to company ${companyId}. operator.get_portfolio lists the companies it can switch to; an admin key of that company can add the user with operator.add_member.`, {
    company_id: companyId,
  })

export async function switchCompany(deps: Deps, principal: Principal, companyId: string) {
  const before = principal.companyId
  const ok = await switchKeyCompany(deps.db.app, principal.keyId, companyId, deps.clock.now())
  if (!ok) throw notMember(companyId)
  // The key's cached principal names the company it acted for: drop it so the next call resolves anew.
  forgetCompanyKeys(deps, before)
  forgetCompanyKeys(deps, companyId)
  const company = (await companiesOf(deps, principal)).find((c) => c.company_id === companyId)
  return { company_id: companyId, business_name: company?.business_name ?? '', previous_company_id: before, switched: companyId !== before }
}

export async function addMember(deps: Deps, principal: Principal, email: string) {
  const userId = await grantMembership(deps.db.app, principal.companyId, email)
  if (!userId) {
    throw new AppError('not_found', `No user has the email ${email}. The operator signs up their first company with POST /api/v1/onboard, then an admin key of this company adds them here.`, { email })
  }
  return { company_id: principal.companyId, email, member: true }
}

function present(c: OperatorCompany, f: CompanyFigures) {
  return {
    company_id: c.company_id,
    business_name: c.business_name,
    time_zone: c.time_zone,
    role: c.role,
    active: c.active,
    plan_slug: f.plan_slug,
    subscription_status: f.subscription_status,
    leads_this_month: f.leads_this_month,
    open_quotes: f.open_quotes,
    jobs_this_week: f.jobs_this_week,
    outstanding_invoices: f.outstanding_invoices,
    outstanding_amount: centsToDollars(f.outstanding_cents),
    overdue_invoices: f.overdue_invoices,
    overdue_amount: centsToDollars(f.overdue_cents),
  }
}

/** One read per company, each in its own tenant transaction, one after another (a pooled connection each). */
export async function getPortfolio(deps: Deps, principal: Principal) {
  const at = deps.clock.now()
  const companies = []
  for (const c of await companiesOf(deps, principal)) {
    const figures = await withTenant(deps.db, c.company_id, (tx) => companyFigures(tx, c.time_zone, at))
    companies.push(present(c, figures))
  }
  return { active_company_id: principal.companyId, companies }
}

export async function dashboard(deps: Deps, principal: Principal) {
  const { active_company_id: active, companies } = await getPortfolio(deps, principal)
  const sum = (k: 'leads_this_month' | 'open_quotes' | 'jobs_this_week' | 'outstanding_invoices' | 'overdue_invoices') =>
    companies.reduce((n, c) => n + c[k], 0)
  // Summed in cents: adding dollar floats would drift.
  const cents = (k: 'outstanding_amount' | 'overdue_amount') => companies.reduce((n, c) => n + Math.round(c[k] * 100), 0)
  return {
    active_company_id: active,
    companies,
    totals: {
      companies: companies.length,
      leads_this_month: sum('leads_this_month'),
      open_quotes: sum('open_quotes'),
      jobs_this_week: sum('jobs_this_week'),
      outstanding_invoices: sum('outstanding_invoices'),
      outstanding_amount: centsToDollars(cents('outstanding_amount')),
      overdue_invoices: sum('overdue_invoices'),
      overdue_amount: centsToDollars(cents('overdue_amount')),
    },
  }
}

export const PRICE_BOOK_NOTE = 'Price-book suppliers are not recorded yet (no supplier table); only subcontractors are matched, by ABN.'

export async function getSharedSuppliers(deps: Deps, principal: Principal, trade: string | undefined) {
  const byAbn = new Map<string, { company_id: string; business_name: string; row: SupplierRow }[]>()
  for (const c of await companiesOf(deps, principal)) {
    const rows = await withTenant(deps.db, c.company_id, (tx) => subcontractorsWithAbn(tx, trade))
    for (const row of rows) byAbn.set(row.abn, [...(byAbn.get(row.abn) ?? []), { company_id: c.company_id, business_name: c.business_name, row }])
  }
  const suppliers = [...byAbn]
    .filter(([, uses]) => new Set(uses.map((u) => u.company_id)).size > 1)
    .map(([abn, uses]) => ({
      abn,
      kind: 'subcontractor' as const,
      name: uses[0]!.row.name,
      companies: uses.map((u) => ({
        company_id: u.company_id, business_name: u.business_name, subcontractor_id: u.row.subcontractor_id, name: u.row.name, status: u.row.status,
      })),
    }))
  return { suppliers, price_book_suppliers: 'not_recorded' as const, note: PRICE_BOOK_NOTE }
}
