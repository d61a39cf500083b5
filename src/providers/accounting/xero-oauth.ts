// Xero's OAuth 2 authorisation code flow, spoken directly: the authorise URL, the token endpoint
// (code exchange and refresh) and GET /connections. xero-node's XeroClient would fetch Xero's OpenID
// discovery document at start (initialize()); these three endpoints are fixed and configurable
// (XERO_LOGIN_URL, XERO_IDENTITY_URL, XERO_API_BASE_URL), so nothing is fetched until it is needed.
import { ProviderCallError, type ProviderTenant, type TokenSet } from './provider.js'

export const XERO_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'accounting.transactions', 'accounting.contacts', 'accounting.settings.read']

export interface XeroOAuthOptions {
  clientId: string
  clientSecret: string
  loginUrl: string
  identityUrl: string
  /** The host that answers GET /connections (Xero: api.xero.com). */
  connectionsUrl: string
  now: () => Date
  timeoutMs?: number
}

interface TokenResponse { access_token: string; refresh_token: string; expires_in: number; scope?: string }

export class XeroOAuth {
  constructor(private readonly options: XeroOAuthOptions) {}

  authoriseUrl(state: string, redirectUri: string): string {
    const url = new URL('/identity/connect/authorize', this.options.loginUrl)
    url.search = new URLSearchParams({
      response_type: 'code', client_id: this.options.clientId, redirect_uri: redirectUri, scope: XERO_SCOPES.join(' '), state,
    }).toString()
    return url.toString()
  }

  exchangeCode(code: string, redirectUri: string): Promise<TokenSet> {
    return this.token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri })
  }

  /** One call per refresh: Xero rotates the refresh token, so a second call with the old one fails (invalid_grant). */
  refresh(refreshToken: string): Promise<TokenSet> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken })
  }

  async tenants(accessToken: string): Promise<ProviderTenant[]> {
    const response = await this.fetch(new URL('/connections', this.options.connectionsUrl), { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } })
    const body = await this.json<{ tenantId: string; tenantName?: string | null; tenantType?: string }[]>(response, 'Xero connections')
    return body.filter((t) => !t.tenantType || t.tenantType === 'ORGANISATION').map((t) => ({ tenantId: t.tenantId, tenantName: t.tenantName ?? null }))
  }

  private async token(form: Record<string, string>): Promise<TokenSet> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64')
    const response = await this.fetch(new URL('/connect/token', this.options.identityUrl), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    })
    const body = await this.json<TokenResponse>(response, 'Xero token endpoint')
    if (!body.access_token || !body.refresh_token) throw new ProviderCallError('Xero token endpoint answered without access_token and refresh_token.', 502, true)
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresAt: new Date(this.options.now().getTime() + (body.expires_in ?? 1800) * 1000),
      scopes: (body.scope ?? '').split(' ').filter(Boolean),
    }
  }

  private async fetch(url: URL, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000) })
    } catch (error) {
      throw new ProviderCallError(`Xero did not answer at ${url.host} (${(error as Error).message}).`, 0, true)
    }
  }

  private async json<T>(response: Response, what: string): Promise<T> {
    const text = await response.text()
    if (!response.ok) {
      // invalid_grant: the refresh token was used or revoked; the owner must connect again.
      let reason = text.slice(0, 200)
      try { reason = (JSON.parse(text) as { error?: string }).error ?? reason } catch { /* not JSON: keep the text */ }
      throw new ProviderCallError(`${what} answered ${response.status}: ${reason}`, response.status, response.status >= 500 || response.status === 429)
    }
    try {
      return JSON.parse(text) as T
    } catch {
      throw new ProviderCallError(`${what} answered with something other than JSON.`, 502, true)
    }
  }
}
