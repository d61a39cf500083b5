// Wallet SQL: postings go through the SECURITY DEFINER functions of migration 027 (wallet_post,
// wallet_transfer), which lock the company's balance row; reads run in the tenant transaction.
import type postgres from 'postgres'
import type { Sql } from '../../db/sql.js'

export type EntryKind = 'grant' | 'deposit' | 'charge' | 'refund' | 'transfer_out' | 'transfer_in' | 'referral'
export type PostStatus = 'applied' | 'insufficient' | 'duplicate'

export interface Posting {
  companyId: string
  kind: EntryKind
  /** Signed: credit positive, debit negative. */
  cents: number
  operation?: string | null
  reference?: string | null
  counterpartyId?: string | null
  note?: string | null
  at: Date
}

export interface PostResult { status: PostStatus; entryId: string | null; balanceCents: number }

/** One entry, or why not. `sql` is the app pool (a charge, its own statement) or a caller's transaction. */
export async function postEntry(sql: Sql | postgres.TransactionSql, p: Posting): Promise<PostResult> {
  const [row] = await (sql as Sql)<{ status: PostStatus; entry_id: string | null; balance_cents: string }[]>`
    select status, entry_id, balance_cents from wallet_post(${p.companyId}, ${p.kind}, ${p.cents}, ${p.operation ?? null},
      ${p.reference ?? null}, ${p.counterpartyId ?? null}, ${p.note ?? null}, ${p.at})`
  return { status: row!.status, entryId: row!.entry_id, balanceCents: Number(row!.balance_cents) }
}

export type TransferStatus = PostStatus | 'same_company' | 'no_recipient'

export async function transferCredit(sql: Sql | postgres.TransactionSql, t: { fromId: string; toId: string; cents: number; reference: string; note: string | null; at: Date }) {
  const [row] = await (sql as Sql)<{ status: TransferStatus; balance_cents: string | null }[]>`
    select status, balance_cents from wallet_transfer(${t.fromId}, ${t.toId}, ${t.cents}, ${t.reference}, ${t.note}, ${t.at})`
  return { status: row!.status, balanceCents: Number(row!.balance_cents ?? 0) }
}

/** The company's balance (tenant transaction): the cached sum, 0 before its first entry. */
export async function findBalanceCents(tx: postgres.TransactionSql): Promise<number> {
  const [row] = await tx<{ balance_cents: string }[]>`select balance_cents from wallet_balances`
  return Number(row?.balance_cents ?? 0)
}

export interface EntryRow {
  id: string
  kind: EntryKind
  amount_cents: string
  balance_after_cents: string
  operation: string | null
  reference: string | null
  counterparty_company_id: string | null
  note: string | null
  created_at: Date
}

/** A page of entries, newest first by id (the order they were posted), after the keyset `beforeId`. */
export async function listEntryRows(
  tx: postgres.TransactionSql,
  filter: { kind?: EntryKind; since?: Date; until?: Date; beforeId?: string },
  limit: number,
): Promise<EntryRow[]> {
  const conditions = [
    filter.kind && tx`kind = ${filter.kind}`,
    filter.since && tx`created_at >= ${filter.since}`,
    filter.until && tx`created_at < ${filter.until}`,
    filter.beforeId && tx`id < ${filter.beforeId}`,
  ].filter((c): c is postgres.PendingQuery<postgres.Row[]> => Boolean(c))
  const where = conditions.length ? tx`where ${conditions.reduce((all, c) => tx`${all} and ${c}`)}` : tx``
  return tx<EntryRow[]>`
    select id::text, kind, amount_cents, balance_after_cents, operation, reference, counterparty_company_id, note, created_at
    from wallet_entries ${where} order by id desc limit ${limit}`
}

export interface DepositRow {
  id: string
  company_id: string
  method: 'card' | 'crypto'
  provider: string
  amount_cents: string
  asset: string | null
  status: 'pending' | 'credited'
  pay_token: string
  pay_url: string | null
  expires_at: Date | null
  created_at: Date
  credited_at: Date | null
}

const depositColumns = (tx: postgres.TransactionSql) =>
  tx`id, company_id, method, provider, amount_cents, asset, status, pay_token, pay_url, expires_at, created_at, credited_at`

export async function insertDeposit(
  tx: postgres.TransactionSql,
  d: { companyId: string; method: 'card' | 'crypto'; provider: string; amountCents: number; asset: string | null; payToken: string; at: Date },
): Promise<DepositRow> {
  const [row] = await tx<DepositRow[]>`
    insert into wallet_deposits (company_id, method, provider, amount_cents, asset, pay_token, created_at)
    values (${d.companyId}, ${d.method}, ${d.provider}, ${d.amountCents}, ${d.asset}, ${d.payToken}, ${d.at})
    returning ${depositColumns(tx)}`
  return row!
}

export async function attachDepositSession(tx: postgres.TransactionSql, id: string, s: { sessionId: string; payUrl: string; expiresAt: Date }): Promise<DepositRow> {
  const [row] = await tx<DepositRow[]>`
    update wallet_deposits set provider_session_id = ${s.sessionId}, pay_url = ${s.payUrl}, expires_at = ${s.expiresAt}
    where id = ${id} returning ${depositColumns(tx)}`
  return row!
}

export async function lockDeposit(tx: postgres.TransactionSql, by: { id: string } | { payToken: string }): Promise<DepositRow | null> {
  const [row] = 'id' in by
    ? await tx<DepositRow[]>`select ${depositColumns(tx)} from wallet_deposits where id = ${by.id} for no key update`
    : await tx<DepositRow[]>`select ${depositColumns(tx)} from wallet_deposits where pay_token = ${by.payToken} for no key update`
  return row ?? null
}

export async function markDepositCredited(tx: postgres.TransactionSql, id: string, paymentId: string | null, at: Date): Promise<void> {
  await tx`update wallet_deposits set status = 'credited', credited_at = ${at}, provider_payment_id = ${paymentId} where id = ${id}`
}

/** The company a sandbox pay page's token belongs to (before the tenant is known). */
export async function findDepositCompany(sql: Sql, payToken: string): Promise<string | null> {
  const [row] = await sql<{ company_id: string | null }[]>`select wallet_deposit_company(${payToken}) as company_id`
  return row?.company_id ?? null
}

export interface ChargeOutcome { status: 'applied' | 'insufficient'; entryId: string | null; balanceCents: number }

/** Charges in arrival order under one lock of the company's balance (wallet_charge_many). */
export async function chargeMany(sql: Sql, companyId: string, cents: number[], operations: string[], at: Date): Promise<ChargeOutcome[]> {
  const rows = await sql<{ ord: number; status: 'applied' | 'insufficient'; entry_id: string | null; balance_cents: string }[]>`
    select ord, status, entry_id, balance_cents from wallet_charge_many(${companyId}, ${cents}::bigint[], ${operations}::text[], ${at}) order by ord`
  return rows.map((r) => ({ status: r.status, entryId: r.entry_id, balanceCents: Number(r.balance_cents) }))
}
