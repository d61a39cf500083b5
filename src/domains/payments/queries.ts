// Payments SQL: the company's payment account, payments recorded against invoices, processor events
// and what the pay page names. Functions take the tenant transaction from withTenant(); the two
// owner lookups before the company is known run on the app pool through SECURITY DEFINER functions.
import type postgres from 'postgres'
import type { Sql } from '../../db/sql.js'

// The payment account.

export interface AccountRow {
  provider: string
  account_id: string
  charges_enabled: boolean
  onboarding_url: string | null
  connected_at: Date
  updated_at: Date
}

export async function findPaymentAccount(tx: postgres.TransactionSql): Promise<AccountRow | undefined> {
  const [row] = await tx<AccountRow[]>`select provider, account_id, charges_enabled, onboarding_url, connected_at, updated_at from payment_accounts`
  return row
}

export interface NewAccount { provider: string; accountId: string; chargesEnabled: boolean; onboardingUrl: string | null }

/** Connects the account, replacing the company's previous one (connected_at stays the first). */
export async function upsertPaymentAccount(tx: postgres.TransactionSql, companyId: string, a: NewAccount, now: Date): Promise<void> {
  await tx`
      insert into payment_accounts (company_id, provider, account_id, charges_enabled, onboarding_url, connected_at, updated_at)
      values (${companyId}, ${a.provider}, ${a.accountId}, ${a.chargesEnabled}, ${a.onboardingUrl}, ${now}, ${now})
      on conflict (company_id) do update set provider = excluded.provider, account_id = excluded.account_id,
        charges_enabled = excluded.charges_enabled, onboarding_url = excluded.onboarding_url, updated_at = excluded.updated_at`
}

export async function updateAccountChargesEnabled(tx: postgres.TransactionSql, provider: string, accountId: string, chargesEnabled: boolean, now: Date): Promise<void> {
  await tx`update payment_accounts set charges_enabled = ${chargesEnabled}, updated_at = ${now}
           where provider = ${provider} and account_id = ${accountId}`
}

/** The provider account id the company's payments go to. */
export async function findAccountId(tx: postgres.TransactionSql, provider: string): Promise<{ account_id: string } | undefined> {
  const [account] = await tx<{ account_id: string }[]>`select account_id from payment_accounts where provider = ${provider}`
  return account
}

// Companies and clients, as payments name them.

export async function findCompanyContact(tx: postgres.TransactionSql): Promise<{ business_name: string; contact_email: string } | undefined> {
  const [company] = await tx<{ business_name: string; contact_email: string }[]>`select business_name, contact_email from companies`
  return company
}

export async function findBusinessName(tx: postgres.TransactionSql): Promise<{ business_name: string } | undefined> {
  const [company] = await tx<{ business_name: string }[]>`select business_name from companies`
  return company
}

export async function findLeadEmail(tx: postgres.TransactionSql, leadId: string): Promise<{ email: string | null } | undefined> {
  const [lead] = await tx<{ email: string | null }[]>`select email from leads where id = ${leadId}`
  return lead
}

/** The company's own row while it is not deleted (RLS: only this company's row). */
export async function findLiveCompany(tx: postgres.TransactionSql): Promise<{ id: string } | undefined> {
  const [company] = await tx<{ id: string }[]>`select id from companies where deleted_at is null`
  return company
}

// Payments.

export interface PaymentRow {
  id: string
  invoice_id: string
  amount_cents: string
  surcharge_cents: string
  excess_cents: string
  method: string
  provider: string
  reference: string | null
  received_at: Date
}

export async function findPaymentByProviderId(tx: postgres.TransactionSql, provider: string, providerPaymentId: string): Promise<PaymentRow | undefined> {
  const [existing] = await tx<PaymentRow[]>`
    select id, invoice_id, amount_cents, surcharge_cents, excess_cents, method, provider, reference, received_at
    from payments where provider = ${provider} and provider_payment_id = ${providerPaymentId}`
  return existing
}

export interface NewPayment {
  invoice_id: string; amount_cents: number; surcharge_cents: number; excess_cents: number; method: string
  provider: string; provider_payment_id: string; reference: string | null; received_at: Date
}

export async function insertPayment(tx: postgres.TransactionSql, companyId: string, p: NewPayment, now: Date): Promise<PaymentRow> {
  const [row] = await tx<PaymentRow[]>`
    insert into payments (company_id, invoice_id, amount_cents, surcharge_cents, excess_cents, method, provider, provider_payment_id, reference, received_at, created_at)
    values (${companyId}, ${p.invoice_id}, ${p.amount_cents}, ${p.surcharge_cents}, ${p.excess_cents}, ${p.method}, ${p.provider}, ${p.provider_payment_id},
            ${p.reference}, ${p.received_at}, ${now})
    returning id, invoice_id, amount_cents, surcharge_cents, excess_cents, method, provider, reference, received_at`
  return row!
}

/** Adds the applied cents to the invoice's paid amount, with its new status and paid time. */
export async function updateInvoicePaid(tx: postgres.TransactionSql, invoiceId: string, appliedCents: number, status: 'Paid' | 'Partially Paid', paidAt: Date | null, now: Date): Promise<void> {
  await tx`
      update invoices set amount_paid_cents = amount_paid_cents + ${appliedCents},
             status = ${status}, paid_at = ${paidAt}, updated_at = ${now}
      where id = ${invoiceId}`
}

export async function findInvoiceId(tx: postgres.TransactionSql, invoiceId: string): Promise<{ id: string } | undefined> {
  const [invoice] = await tx<{ id: string }[]>`select id from invoices where id = ${invoiceId}`
  return invoice
}

// Processor webhooks.

/** The company whose payment account this is (SECURITY DEFINER: an account event names only the account). */
export async function findCompanyByPaymentAccount(sql: Sql, provider: string, accountId: string): Promise<string | null> {
  const [row] = await sql<{ company_id: string | null }[]>`select payment_account_company(${provider}, ${accountId}) as company_id`
  return row?.company_id ?? null
}

/** Records the processor's event; false when it was recorded before (a replay). */
export async function insertProcessorEvent(tx: postgres.TransactionSql, provider: string, eventId: string, companyId: string, type: string): Promise<boolean> {
  const rows = await tx`insert into processor_events (provider, event_id, company_id, event_type) values (${provider}, ${eventId}, ${companyId}, ${type})
                        on conflict do nothing returning event_id`
  return rows.length > 0
}
