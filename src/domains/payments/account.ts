// The company's payment account (a connected account with the processor), which its customers'
// payments go to. Connecting is the owner's step: with the sandbox it is active at once; with Stripe
// the owner finishes Stripe's own sign-up at the onboarding link, and the account turns active when
// Stripe says it can take charges (an account.updated webhook).
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'

interface AccountRow {
  provider: string
  account_id: string
  charges_enabled: boolean
  onboarding_url: string | null
  connected_at: Date
  updated_at: Date
}

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

async function readAccount(tx: postgres.TransactionSql): Promise<AccountRow | undefined> {
  const [row] = await tx<AccountRow[]>`select provider, account_id, charges_enabled, onboarding_url, connected_at, updated_at from payment_accounts`
  return row
}

export async function getPaymentAccount(deps: Deps, principal: Principal) {
  return { account: present(await withTenant(deps.db, principal.companyId, readAccount), deps.payments.name) }
}

export async function connectPaymentAccount(deps: Deps, principal: Principal) {
  // The processor call happens outside any transaction (see "External calls outside transactions").
  const { existing, company } = await withTenant(deps.db, principal.companyId, async (tx) => {
    const [company] = await tx<{ business_name: string; contact_email: string }[]>`select business_name, contact_email from companies`
    return { existing: await readAccount(tx), company: company! }
  })
  const reuse = existing?.provider === deps.payments.name ? existing.account_id : null
  const account = await deps.payments.connectAccount({
    companyId: principal.companyId, email: company.contact_email, businessName: company.business_name, existingAccountId: reuse,
    returnUrl: `${deps.urls.apiBase}/payments/account`,
  })
  const now = deps.clock.now()
  const row = await withTenant(deps.db, principal.companyId, async (tx) => {
    await tx`
      insert into payment_accounts (company_id, provider, account_id, charges_enabled, onboarding_url, connected_at, updated_at)
      values (${principal.companyId}, ${deps.payments.name}, ${account.accountId}, ${account.chargesEnabled}, ${account.onboardingUrl}, ${now}, ${now})
      on conflict (company_id) do update set provider = excluded.provider, account_id = excluded.account_id,
        charges_enabled = excluded.charges_enabled, onboarding_url = excluded.onboarding_url, updated_at = excluded.updated_at`
    return readAccount(tx)
  })
  return { account: present(row, deps.payments.name) }
}

/** The processor's word on whether the account can take charges (account.updated). */
export async function applyAccountUpdate(deps: Deps, tx: postgres.TransactionSql, accountId: string, chargesEnabled: boolean) {
  await tx`update payment_accounts set charges_enabled = ${chargesEnabled}, updated_at = ${deps.clock.now()}
           where provider = ${deps.payments.name} and account_id = ${accountId}`
}

/** The active account, or the clear error payments.send_link and the pay page give without one. */
export async function activeAccount(deps: Deps, tx: postgres.TransactionSql): Promise<AccountRow> {
  const row = await readAccount(tx)
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
