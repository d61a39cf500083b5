// Starting a deposit and crediting it. A deposit is a pending row with a hosted payment; the
// credit is posted only on confirmation (the processor's verified event, or the sandbox page
// standing in for it), as the ledger entry of kind 'deposit' referenced by the deposit's id, in
// the same transaction that marks the deposit credited. A second confirmation finds the deposit
// credited (or the entry a duplicate) and changes nothing.
import { randomBytes } from 'node:crypto'
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, validationError } from '../../core/errors.js'
import { centsToDollars, formatCents, parseDollars } from '../../core/money.js'
import { isUuid } from '../../core/uuid.js'
import { withTenant } from '../../db/sql.js'
import { findContactEmail } from '../billing/queries.js'
import { insertProcessorEvent } from '../payments/queries.js'
import type { ProcessorEvent } from '../../providers/payments/provider.js'
import { DEPOSIT_MAX_DOLLARS, DEPOSIT_MIN_DOLLARS } from './schema.js'
import { attachDepositSession, findDepositCompany, insertDeposit, lockDeposit, markDepositCredited, postEntry, type DepositRow } from './queries.js'

export const CRYPTO_SANDBOX_NOTICE = 'Sandbox: no real crypto network is used and nothing real is paid; the pay page confirms the deposit locally. Real crypto needs a crypto provider configured (CRYPTO_PROVIDER).'

export function presentDeposit(row: DepositRow, address: string | null = null) {
  return {
    id: row.id,
    method: row.method,
    provider: row.provider,
    amount: centsToDollars(Number(row.amount_cents)),
    asset: row.asset,
    status: row.status,
    pay_url: row.pay_url ?? '',
    address,
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  }
}

/** The amount in cents, or a validation_error naming the limits (the schema says them too). */
function depositCents(amount: number): number {
  const cents = parseDollars(amount, 'amount')
  if (cents < DEPOSIT_MIN_DOLLARS * 100 || cents > DEPOSIT_MAX_DOLLARS * 100) {
    throw validationError([`amount: a deposit is $${DEPOSIT_MIN_DOLLARS} to $${DEPOSIT_MAX_DOLLARS.toLocaleString('en-AU')}; split a larger amount into several deposits`])
  }
  return cents
}

const payToken = () => randomBytes(24).toString('base64url')

/** wallet.deposit: a pending card deposit and its hosted payment (Stripe Checkout or the sandbox page). */
export async function startDeposit(deps: Deps, principal: Principal, input: { amount: number }) {
  const cents = depositCents(input.amount)
  const now = deps.clock.now()
  const token = payToken()
  const { row, email } = await withTenant(deps.db, principal.companyId, async (tx) => ({
    row: await insertDeposit(tx, { companyId: principal.companyId, method: 'card', provider: deps.payments.name, amountCents: cents, asset: null, payToken: token, at: now }),
    email: await findContactEmail(tx),
  }))
  // The processor is called outside the transaction: a slow network must not hold the row's lock.
  const site = deps.urls.siteRoot
  const session = await deps.payments.createWalletDeposit({
    companyId: principal.companyId, depositId: row.id, amountCents: cents, customerEmail: email, payToken: token,
    successUrl: `${site}/wallet/deposit/complete`, cancelUrl: `${site}/wallet/deposit/cancelled`,
  })
  const attached = await withTenant(deps.db, principal.companyId, (tx) => attachDepositSession(tx, row.id, { sessionId: session.id, payUrl: session.url, expiresAt: session.expiresAt }))
  const sandbox = deps.payments.name === 'sandbox' ? ' Sandbox: the page takes no card and moves no money.' : ''
  return {
    deposit: presentDeposit(attached),
    message: `Give pay_url to the human operator to pay ${formatCents(cents)}; the credit is added when the payment is confirmed.${sandbox}`,
  }
}

/** wallet.crypto_deposit: a pending crypto deposit from the crypto provider. */
export async function startCryptoDeposit(deps: Deps, principal: Principal, input: { amount: number; asset?: string }) {
  const cents = depositCents(input.amount)
  const asset = (input.asset ?? 'USDC').toUpperCase()
  const now = deps.clock.now()
  const token = payToken()
  const row = await withTenant(deps.db, principal.companyId, (tx) =>
    insertDeposit(tx, { companyId: principal.companyId, method: 'crypto', provider: deps.crypto.name, amountCents: cents, asset, payToken: token, at: now }))
  const session = await deps.crypto.createDeposit({ companyId: principal.companyId, depositId: row.id, amountCents: cents, asset, payToken: token })
  const attached = await withTenant(deps.db, principal.companyId, (tx) => attachDepositSession(tx, row.id, { sessionId: session.id, payUrl: session.payUrl, expiresAt: session.expiresAt }))
  const notice = deps.crypto.simulated ? CRYPTO_SANDBOX_NOTICE : `Pay ${formatCents(cents)} in ${asset} at pay_url; the credit is added once the payment is confirmed.`
  return { deposit: presentDeposit(attached, session.address), message: notice }
}

type Credited = 'credited' | 'duplicate'

/** Credits a locked deposit once: the ledger entry (referenced by the deposit id) and its status together. */
async function creditLocked(tx: postgres.TransactionSql, deposit: DepositRow, paymentId: string | null, at: Date): Promise<Credited> {
  if (deposit.status === 'credited') return 'duplicate'
  const posted = await postEntry(tx, {
    companyId: deposit.company_id, kind: 'deposit', cents: Number(deposit.amount_cents), reference: deposit.id,
    note: `${deposit.method === 'crypto' ? `${deposit.asset} ` : ''}deposit via ${deposit.provider}`, at,
  })
  await markDepositCredited(tx, deposit.id, paymentId, at)
  return posted.status === 'applied' ? 'credited' : 'duplicate'
}

/**
 * A sandbox pay page's confirmation (card or crypto): only for a deposit the sandbox itself took,
 * and only while the sandbox is the configured provider.
 */
export async function confirmSandboxDeposit(deps: Deps, token: string, method: 'card' | 'crypto') {
  const companyId = await depositCompany(deps, token, method)
  return withTenant(deps.db, companyId, async (tx) => {
    const deposit = await lockDeposit(tx, { payToken: token })
    if (!deposit || deposit.method !== method) throw missing()
    const outcome = await creditLocked(tx, deposit, `sandbox_${deposit.id}`, deps.clock.now())
    return { deposit: presentDeposit({ ...deposit, status: 'credited' }), outcome }
  })
}

/** The deposit a sandbox page shows. */
export async function sandboxDepositView(deps: Deps, token: string, method: 'card' | 'crypto') {
  const companyId = await depositCompany(deps, token, method)
  return withTenant(deps.db, companyId, async (tx) => {
    const deposit = await lockDeposit(tx, { payToken: token })
    if (!deposit || deposit.method !== method) throw missing()
    return presentDeposit(deposit)
  })
}

const missing = () => new AppError('not_found', 'This deposit was not found. Start a new one with wallet.deposit or wallet.crypto_deposit.')

async function depositCompany(deps: Deps, token: string, method: 'card' | 'crypto'): Promise<string> {
  const sandbox = method === 'card' ? deps.payments.name === 'sandbox' : deps.crypto.simulated
  if (!sandbox) throw new AppError('not_found', 'Sandbox deposits are not enabled in this deployment.')
  const companyId = /^[A-Za-z0-9_-]{20,64}$/.test(token) ? await findDepositCompany(deps.db.app, token) : null
  if (!companyId) throw missing()
  return companyId
}

type DepositEvent = Extract<ProcessorEvent, { kind: 'wallet_deposit' }>
export interface DepositEventOutcome { status: 'recorded' | 'duplicate' | 'ignored'; event_id: string; detail?: string }

/**
 * A verified processor event for a deposit (payments/webhook.ts): the deposit is credited with the
 * event recorded in the same transaction, so a redelivered event (same id) or a second event for the
 * same deposit credits nothing more.
 */
export async function creditDepositEvent(deps: Deps, event: DepositEvent): Promise<DepositEventOutcome> {
  const ignored = (detail: string) => ({ status: 'ignored' as const, event_id: event.eventId, detail })
  if (!isUuid(event.companyId) || !isUuid(event.depositId)) return ignored('metadata is not ours')
  // Credit is bought from the platform: a session on someone's connected account is not a deposit.
  if (event.accountId) return ignored('paid to a connected account, not the platform')
  return withTenant(deps.db, event.companyId, async (tx) => {
    const deposit = await lockDeposit(tx, { id: event.depositId }) // RLS: only this company's deposit
    if (!deposit || deposit.method !== 'card' || deposit.provider !== deps.payments.name) return ignored('unknown deposit')
    if (Number(deposit.amount_cents) !== event.amountCents) return ignored(`paid ${event.amountCents} cents, the deposit is ${deposit.amount_cents}`)
    if (!(await insertProcessorEvent(tx, deps.payments.name, event.eventId, event.companyId, 'wallet_deposit'))) return { status: 'duplicate' as const, event_id: event.eventId }
    const outcome = await creditLocked(tx, deposit, event.paymentId, deps.clock.now())
    return { status: outcome === 'credited' ? 'recorded' as const : 'duplicate' as const, event_id: event.eventId }
  })
}
