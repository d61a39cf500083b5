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
