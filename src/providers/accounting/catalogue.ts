// The accounting providers integrations.available_providers lists, what each can do here, and
// whether this deployment can connect it. A provider whose adapter is not built is listed as not
// available with that reason, rather than left out, so an owner knows where it stands.
import type { Config } from '../../config.js'
import type { AccountingCapabilities, AccountingProviderId, ProviderListing } from './provider.js'

export const XERO_CAPABILITIES: AccountingCapabilities = {
  pull: ['contact', 'payment'],
  push: ['contact', 'invoice', 'credit_note', 'payment'],
  webhooks: true,
  idempotent_writes: true,
}

const NOT_BUILT: AccountingCapabilities = { pull: [], push: [], webhooks: false, idempotent_writes: false }

/** The env settings Xero needs that this deployment lacks (empty: Xero can be connected). */
export function missingXeroSettings(config: Config): string[] {
  const missing: string[] = []
  if (!config.XERO_CLIENT_ID) missing.push('XERO_CLIENT_ID')
  if (!config.XERO_CLIENT_SECRET) missing.push('XERO_CLIENT_SECRET')
  if (!config.INTEGRATIONS_TOKEN_KEY) missing.push('INTEGRATIONS_TOKEN_KEY')
  return missing
}

export function accountingListings(config: Config): ProviderListing[] {
  const xeroMissing = missingXeroSettings(config)
  return [
    {
      provider: 'xero',
      name: 'Xero',
      category: 'accounting',
      available: xeroMissing.length === 0,
      unavailable_reason: xeroMissing.length === 0
        ? null
        : `This deployment has no Xero app configured: set ${xeroMissing.join(', ')} (docs: README, environment variables).`,
      capabilities: XERO_CAPABILITIES,
      limits: 'Per organisation: 5 concurrent calls, 60 per minute, 5,000 per day; access tokens last 30 minutes.',
    },
    {
      provider: 'myob',
      name: 'MYOB',
      category: 'accounting',
      available: false,
      unavailable_reason: 'The MYOB adapter is not built yet (OAuth 2 plus a company-file token); only Xero can be connected today.',
      capabilities: NOT_BUILT,
      limits: 'OAuth 2 access plus a company-file token per file.',
    },
    {
      provider: 'quickbooks_online',
      name: 'QuickBooks Online',
      category: 'accounting',
      available: false,
      unavailable_reason: 'The QuickBooks Online adapter is not built yet; only Xero can be connected today.',
      capabilities: NOT_BUILT,
      limits: '500 requests per minute per company; access tokens last 1 hour, refresh tokens 100 days.',
    },
  ]
}

export const PROVIDER_NAMES: Record<AccountingProviderId, string> = { xero: 'Xero', myob: 'MYOB', quickbooks_online: 'QuickBooks Online' }
