// wallet.balance, wallet.history and wallet.transfer (deposits are in deposits.ts).
import { findCodeOwner } from '../ecosystem/queries.js'
import { normaliseReferralCode } from '../../core/referral-code.js'
import { randomUUID } from 'node:crypto'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, validationError } from '../../core/errors.js'
import { centsToDollars, formatCents, parseDollars } from '../../core/money.js'
import { timestampFilter } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import { PRICE_CENTS } from '../../core/cost.js'
import { findBalanceCents, listEntryRows, transferCredit, type EntryKind, type EntryRow } from './queries.js'
import { TRANSFER_MAX_DOLLARS } from './schema.js'

export async function getBalance(deps: Deps, principal: Principal) {
  const cents = await withTenant(deps.db, principal.companyId, findBalanceCents)
  return {
    balance: centsToDollars(cents),
    prices: {
      read: centsToDollars(PRICE_CENTS.read),
      write: centsToDollars(PRICE_CENTS.write),
      free: 'REST calls, and discovery, formation, billing and wallet tools',
    },
    deposit_with: 'wallet.deposit' as const,
  }
}

function presentEntry(row: EntryRow) {
  return {
    id: row.id,
    kind: row.kind,
    amount: centsToDollars(Number(row.amount_cents)),
    balance_after: centsToDollars(Number(row.balance_after_cents)),
    operation: row.operation,
    reference: row.reference,
    counterparty_company_id: row.counterparty_company_id,
    note: row.note,
    created_at: row.created_at.toISOString(),
  }
}

// The cursor is the last entry's id (entries are numbered in the order they were posted).
const encodeCursor = (id: string) => Buffer.from(JSON.stringify({ b: id })).toString('base64url')
function decodeCursor(cursor: string | undefined): string | undefined {
  if (!cursor) return undefined
  let id: unknown
  try {
    id = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { b?: unknown }).b
  } catch { /* not ours: refused below */ }
  if (typeof id !== 'string' || !/^[1-9][0-9]{0,17}$/.test(id) || encodeCursor(id) !== cursor) {
    throw validationError(['cursor: is not a cursor this service issued; pass next_cursor back unchanged, or leave cursor out to start at the newest'])
  }
  return id
}

export async function listHistory(deps: Deps, principal: Principal, input: { type?: EntryKind; since?: string; until?: string; cursor?: string; limit?: number }) {
  const limit = input.limit ?? 50
  const filter = { kind: input.type, since: timestampFilter(input.since, 'since'), until: timestampFilter(input.until, 'until'), beforeId: decodeCursor(input.cursor) }
  const rows = await withTenant(deps.db, principal.companyId, (tx) => listEntryRows(tx, filter, limit))
  const last = rows[rows.length - 1]
  return { entries: rows.map(presentEntry), limit, next_cursor: rows.length === limit && last ? encodeCursor(last.id) : null }
}

/** The receiving company: by id, or by its own referral code (one of the two, not both). */
async function recipientOf(deps: Deps, input: { to_company_id?: string; to_referral_code?: string }): Promise<string> {
  if ((input.to_company_id === undefined) === (input.to_referral_code === undefined)) {
    throw validationError(['to_company_id: give the receiving company by to_company_id or by to_referral_code (one of the two)'])
  }
  if (input.to_company_id !== undefined) return input.to_company_id.toLowerCase()
  const owner = await findCodeOwner(deps.db.app, normaliseReferralCode(input.to_referral_code!), null)
  if (!owner) throw new AppError('not_found', `No company has the referral code ${input.to_referral_code}. Check the code (ecosystem.referral_link shows a company its own); nothing was moved.`)
  return owner.company_id
}

export async function transfer(deps: Deps, principal: Principal, input: { to_company_id?: string; to_referral_code?: string; amount: number; note?: string }) {
  const cents = parseDollars(input.amount, 'amount')
  if (cents <= 0 || cents > TRANSFER_MAX_DOLLARS * 100) {
    throw validationError([`amount: a transfer is more than $0 and at most $${TRANSFER_MAX_DOLLARS.toLocaleString('en-AU')}; split a larger amount into several transfers`])
  }
  const toId = await recipientOf(deps, input)
  if (toId === principal.companyId) {
    throw validationError(['to_company_id: is this company; a transfer goes to another company'], 'Credit cannot be transferred to the same wallet.')
  }
  const id = randomUUID()
  const note = input.note?.trim() || null
  // wallet_transfer locks both balances and writes both entries in one transaction (migration 027).
  const result = await transferCredit(deps.db.app, { fromId: principal.companyId, toId, cents, reference: id, note, at: deps.clock.now() })
  switch (result.status) {
    case 'applied':
      return { transfer: { id, to_company_id: toId, amount: centsToDollars(cents), note }, balance: centsToDollars(result.balanceCents) }
    case 'insufficient':
      throw new AppError('insufficient_credit',
        `The transfer is ${formatCents(cents)} and the wallet holds ${formatCents(result.balanceCents)}. Transfer less, or add credit with wallet.deposit first.`,
        { balance: centsToDollars(result.balanceCents), price: centsToDollars(cents), next_step: 'wallet.deposit' })
    case 'no_recipient':
      throw new AppError('not_found', `No company ${toId} was found to receive the credit. Check to_company_id (the other company's id); nothing was moved.`)
    case 'same_company':
      throw validationError(['to_company_id: is this company; a transfer goes to another company'], 'Credit cannot be transferred to the same wallet.')
    default:
      // A fresh reference cannot be a duplicate; if it ever is, nothing moved.
      throw new AppError('conflict', 'The transfer was not applied (a duplicate reference). Nothing was moved; call wallet.transfer again.')
  }
}
