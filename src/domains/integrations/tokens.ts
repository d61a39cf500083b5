// A connection's access token, refreshed by one refresher at a time. Xero rotates the refresh token
// on every refresh and refuses the old one (invalid_grant), so two refreshes of one connection must
// never both reach the token endpoint: the refresh runs holding the connection row (SELECT ... FOR
// UPDATE); a second caller waits on the row, then finds the token fresh and uses it.
import type { Deps } from '../../core/deps.js'
import { onePerApp } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { ProviderCallError, type AccountingProvider, type ProviderAuth, type RateLimits, type TokenSet } from '../../providers/accounting/provider.js'
import { PROVIDER_NAMES } from '../../providers/accounting/catalogue.js'
import { findConnection, recordConnectionError, recordLimits, storeRefreshedTokens, type ConnectionRow, type SealedTokens } from './queries.js'
import { open, seal, tokenKeys, type TokenKeys } from './token-crypto.js'

/** Refreshed this long before it expires, so a call never starts with a token about to lapse. */
const EXPIRY_MARGIN_MS = 2 * 60_000

const keysOfApp = onePerApp((deps: Deps) => tokenKeys(deps.config))

export function integrationKeys(deps: Deps): TokenKeys {
  const keys = keysOfApp(deps)
  if (!keys) throw new AppError('conflict', 'This deployment has no INTEGRATIONS_TOKEN_KEY, so no integration can be connected or used; set it (32 bytes, base64) and restart.')
  return keys
}

export function providerOrRefuse(deps: Deps, provider: ConnectionRow['provider']): AccountingProvider {
  const adapter = deps.accounting.get(provider)
  if (!adapter) {
    const listing = deps.accounting.listings().find((l) => l.provider === provider)
    throw new AppError('conflict', listing?.unavailable_reason ?? `${PROVIDER_NAMES[provider]} cannot be connected in this deployment.`)
  }
  return adapter
}

export function sealTokens(keys: TokenKeys, tokens: TokenSet): SealedTokens {
  const access = seal(keys, tokens.accessToken)
  const refresh = seal(keys, tokens.refreshToken)
  return { access_token_sealed: access.sealed, refresh_token_sealed: refresh.sealed, token_key_id: access.keyId, access_token_expires_at: tokens.expiresAt, scopes: tokens.scopes }
}

export interface ConnectionAccess { connection: ConnectionRow; provider: AccountingProvider; auth: ProviderAuth }

const notUsable = (row: ConnectionRow) => new AppError('conflict',
  `Connection ${row.id} (${PROVIDER_NAMES[row.provider]}) is ${row.status}${row.last_error ? `: ${row.last_error}` : ''}. Connect again with integrations.connect.`)

/** The connection with a live access token, refreshing it first (once, serialised) when it is about to expire. */
export async function connectionAccess(deps: Deps, companyId: string, connectionId: string): Promise<ConnectionAccess> {
  const keys = integrationKeys(deps)
  const row = await withTenant(deps.db, companyId, (tx) => findConnection(tx, connectionId))
  if (!row) throw new AppError('not_found', `No integration connection ${connectionId}; see integrations.list_connections.`)
  const provider = providerOrRefuse(deps, row.provider)
  if (row.status === 'disconnected') throw notUsable(row)
  if (isFresh(deps, row)) return access(keys, row, provider)
  return refreshSerialised(deps, keys, companyId, connectionId, provider)
}

const isFresh = (deps: Deps, row: ConnectionRow) => row.access_token_expires_at.getTime() - EXPIRY_MARGIN_MS > deps.clock.now().getTime()
const access = (keys: TokenKeys, row: ConnectionRow, provider: AccountingProvider): ConnectionAccess =>
  ({ connection: row, provider, auth: { tenantId: row.tenant_id, accessToken: open(keys, row.access_token_sealed, row.token_key_id) } })

async function refreshSerialised(deps: Deps, keys: TokenKeys, companyId: string, connectionId: string, provider: AccountingProvider): Promise<ConnectionAccess> {
  let refused: AppError | null = null
  const result = await withTenant(deps.db, companyId, async (tx) => {
    const row = (await findConnection(tx, connectionId, { forUpdate: true }))!
    if (isFresh(deps, row)) return access(keys, row, provider) // refreshed by the caller we waited for
    const now = deps.clock.now()
    let tokens: TokenSet
    try {
      tokens = await provider.refresh(open(keys, row.refresh_token_sealed, row.token_key_id))
    } catch (error) {
      if (!(error instanceof ProviderCallError)) throw error
      // Refused (invalid_grant: revoked, or unused for 60 days): only a new grant helps. Otherwise
      // the provider is unreachable for now; the next call tries again.
      const final = !error.retryable
      await recordConnectionError(tx, connectionId, `Token refresh failed: ${error.message}`, final ? 'error' : row.status, now)
      refused = new AppError(final ? 'conflict' : 'rate_limited',
        final
          ? `${PROVIDER_NAMES[row.provider]} refused to renew this connection's access (${error.message}); connect again with integrations.connect.`
          : `${PROVIDER_NAMES[row.provider]} could not renew access just now (${error.message}); try again in a minute.`)
      return null
    }
    const sealed = sealTokens(keys, tokens) // sealed under the current key: a rotation completes here
    await storeRefreshedTokens(tx, connectionId, sealed, now)
    return { connection: { ...row, ...sealed, status: 'active' as const, refreshed_at: now, last_error: null, last_error_at: null }, provider, auth: { tenantId: row.tenant_id, accessToken: tokens.accessToken } }
  })
  if (refused) throw refused
  return result!
}

/** What the provider said is left of its limits, kept for integrations.connection_status. */
export async function keepLimits(deps: Deps, companyId: string, connectionId: string, limits: RateLimits | null): Promise<void> {
  if (!limits) return
  await withTenant(deps.db, companyId, (tx) => recordLimits(tx, connectionId, limits, deps.clock.now()))
}
