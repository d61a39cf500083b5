// Connecting an accounting package (OAuth 2 authorisation code flow): integrations.connect gives the
// owner the provider's authorise URL with a signed state naming the company; the provider sends the
// owner back to the callback with a code, which is exchanged for tokens; the organisations the grant
// reaches (Xero: GET /connections) each become a connection, tokens sealed at rest.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { withTenant } from '../../db/sql.js'
import { PROVIDER_NAMES } from '../../providers/accounting/catalogue.js'
import { ProviderCallError, type AccountingProviderId } from '../../providers/accounting/provider.js'
import { presentConnection, upsertConnection } from './queries.js'
import type { ConnectInput } from './schema.js'
import { signState, verifyState } from './token-crypto.js'
import { integrationKeys, providerOrRefuse, sealTokens } from './tokens.js'

export const callbackPath = (provider: AccountingProviderId) => `/integrations/${provider}/callback`
const redirectUri = (deps: Deps, provider: AccountingProviderId) => `${deps.urls.apiBase}${callbackPath(provider)}`

export function connectLink(deps: Deps, principal: Principal, input: Static<typeof ConnectInput>) {
  const adapter = providerOrRefuse(deps, input.provider)
  const keys = integrationKeys(deps)
  const now = deps.clock.now()
  const state = signState(keys, { companyId: principal.companyId, provider: input.provider, keyId: principal.keyId }, now)
  return {
    provider: input.provider,
    authorise_url: adapter.authoriseUrl(state, redirectUri(deps, input.provider)),
    redirect_uri: redirectUri(deps, input.provider),
    expires_at: new Date(now.getTime() + 30 * 60_000).toISOString(),
  }
}

/** What the callback page tells the owner. */
export type CallbackOutcome =
  | { ok: true; provider: AccountingProviderId; connections: ReturnType<typeof presentConnection>[] }
  | { ok: false; status: 400 | 409; message: string }

export async function completeConnection(
  deps: Deps, provider: AccountingProviderId, query: { code?: string; state?: string; error?: string },
): Promise<CallbackOutcome> {
  const name = PROVIDER_NAMES[provider]
  const keys = integrationKeys(deps)
  const state = query.state ? verifyState(keys, query.state, deps.clock.now()) : null
  if (!state || state.provider !== provider) {
    return { ok: false, status: 400, message: `This link is not one we issued, or it is older than 30 minutes. Ask for a new one with integrations.connect.` }
  }
  if (query.error || !query.code) {
    return { ok: false, status: 400, message: `${name} did not grant access (${query.error ?? 'no code returned'}); nothing was connected. Ask for a new link with integrations.connect to try again.` }
  }
  const adapter = providerOrRefuse(deps, provider)
  try {
    const tokens = await adapter.exchangeCode(query.code, redirectUri(deps, provider))
    const tenants = await adapter.tenants(tokens.accessToken)
    if (tenants.length === 0) return { ok: false, status: 409, message: `The ${name} grant reaches no organisation; choose one when asked, then try again.` }
    const sealed = sealTokens(keys, tokens)
    const now = deps.clock.now()
    const rows = await withTenant(deps.db, state.companyId, (tx) => Promise.all(tenants.map((t) =>
      upsertConnection(tx, state.companyId, { provider, tenant_id: t.tenantId, tenant_name: t.tenantName, connected_by: state.keyId, ...sealed }, now))))
    deps.logger.info({ companyId: state.companyId, provider, connections: rows.map((r) => r.id) }, 'integration connected')
    return { ok: true, provider, connections: rows.map((r) => presentConnection(deps.config, r)) }
  } catch (error) {
    if (!(error instanceof ProviderCallError)) throw error
    return { ok: false, status: 409, message: `${name} did not complete the connection (${error.message}). Ask for a new link with integrations.connect and try again.` }
  }
}
