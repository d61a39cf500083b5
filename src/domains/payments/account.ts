// The company's payment account (a connected account with the processor), which its customers'
// payments go to. Connecting is the owner's step: with the sandbox it is active at once; with Stripe
// the owner finishes Stripe's own sign-up at the onboarding link, and the account turns active when
// Stripe says it can take charges (an account.updated webhook).
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { findCompanyContact, findPaymentAccount, updateAccountChargesEnabled, upsertPaymentAccount, type AccountRow } from './queries.js'

function present(row: AccountRow | undefined, provider: string) {
  if (!row || row.provider !== provider) {
    return { connected: false, status: 'not_connected' as const, provider, account_id: null, charges_enabled: false, onboarding_url: null, connected_at: null,
      next_step: 'POST /api/v1/payments/account to connect one (the owner finishes any processor sign-up at the link it returns).' }
  }
  return {
    connected: true, status: row.charges_enabled ? 'active' as const : 'pending' as const, provider: row.provider, account_id: row.account_id,
    charges_enabled: row.charges_enabled, onboarding_url: row.charges_enabled ? null : row.onboarding_url, connected_at: row.connected_at.toISOString(),
    next_step: row.charges_enabled ? null : 'Finish the processor sign-up at onboarding_url; the account turns active when the processor allows charges.',
  }
}

export async function getPaymentAccount(deps: Deps, principal: Principal) {
  return { account: present(await withTenant(deps.db, principal.companyId, findPaymentAccount), deps.payments.name) }
}

export async function connectPaymentAccount(deps: Deps, principal: Principal) {
  // The processor call happens outside any transaction (see "External calls outside transactions").
  const { existing, company } = await withTenant(deps.db, principal.companyId, async (tx) => {
    const company = await findCompanyContact(tx)
    return { existing: await findPaymentAccount(tx), company: company! }
  })
  const reuse = existing?.provider === deps.payments.name ? existing.account_id : null
  const account = await deps.payments.connectAccount({
    companyId: principal.companyId, email: company.contact_email, businessName: company.business_name, existingAccountId: reuse,
    returnUrl: `${deps.urls.apiBase}/payments/account`,
  })
  const now = deps.clock.now()
  const row = await withTenant(deps.db, principal.companyId, async (tx) => {
    await upsertPaymentAccount(tx, principal.companyId, {
      provider: deps.payments.name, accountId: account.accountId, chargesEnabled: account.chargesEnabled, onboardingUrl: account.onboardingUrl,
    }, now)
    return findPaymentAccount(tx)
  })
  return { account: present(row, deps.payments.name) }
}

/** The processor's word on whether the account can take charges (account.updated). */
export async function applyAccountUpdate(deps: Deps, tx: postgres.TransactionSql, accountId: string, chargesEnabled: boolean) {
  await updateAccountChargesEnabled(tx, deps.payments.name, accountId, chargesEnabled, deps.clock.now())
}

/** The active account, or the clear error payments.send_link and the pay page give without one. */
export async function activeAccount(deps: Deps, tx: postgres.TransactionSql): Promise<AccountRow> {
  const row = await findPaymentAccount(tx)
  if (!row || row.provider !== deps.payments.name) {
    throw new AppError('payment_account_required', 'No payment account is connected, so there is no online payment link to send. The owner connects one with POST /api/v1/payments/account (with Stripe they then finish Stripe\'s sign-up at the link it returns); until then clients can pay by the bank details on the invoice.', {
      payment_account: 'not_connected', next_step: 'POST /api/v1/payments/account',
    })
  }
  if (!row.charges_enabled) {
    throw new AppError('payment_account_required', 'The payment account is connected but cannot take payments yet: the owner must finish the processor\'s sign-up at onboarding_url (GET /api/v1/payments/account shows it).', {
      payment_account: 'pending', onboarding_url: row.onboarding_url,
    })
  }
  return row
}
