// The seller and the client an invoice names: the company and lead rows its page, PDF and messages
// print. The token lookup runs before the company is known, on the app pool, through a SECURITY
// DEFINER function; the rest take the tenant transaction from withTenant().
import type postgres from 'postgres'
import type { Sql } from '../../../db/sql.js'

/** The company an invoice's public token belongs to (SECURITY DEFINER: the token is all the caller has). */
export async function findInvoiceCompanyByToken(sql: Sql, token: string): Promise<string | null> {
  const [row] = await sql<{ company_id: string | null }[]>`select invoice_company_by_token(${token}) as company_id`
  return row?.company_id ?? null
}

export async function findBusinessName(tx: postgres.TransactionSql): Promise<string> {
  const [company] = await tx<{ business_name: string }[]>`select business_name from companies`
  return company!.business_name
}

export interface SellerRow {
  business_name: string
  abn: string | null
  phone: string | null
  contact_email: string
  time_zone: string
}

export async function findSeller(tx: postgres.TransactionSql): Promise<SellerRow | undefined> {
  const [company] = await tx<SellerRow[]>`
    select business_name, abn, phone, contact_email, time_zone from companies`
  return company
}

export interface BuyerRow {
  name: string
  address: string | null
  suburb: string | null
  phone: string | null
  email: string | null
}

export async function findBuyer(tx: postgres.TransactionSql, leadId: string): Promise<BuyerRow | undefined> {
  const [lead] = await tx<BuyerRow[]>`
    select name, address, suburb, phone, email from leads where id = ${leadId}`
  return lead
}

/** Who an invoice message goes to. */
export async function findClientContact(tx: postgres.TransactionSql, leadId: string): Promise<{ name: string; phone: string | null; email: string | null } | undefined> {
  const [lead] = await tx<{ name: string; phone: string | null; email: string | null }[]>`select name, phone, email from leads where id = ${leadId}`
  return lead
}
