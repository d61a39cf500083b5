// The OAuth access token of the NSW Government API gateway (api.nsw.gov.au), client-credentials
// grant. A token lives ~12 hours, so it is kept until shortly before it expires; concurrent checks
// share one refresh instead of each asking for a token.

/** A token answer we could not use: the register counts as unavailable. */
export class RegisterUnavailable extends Error {}

export interface TokenSource {
  baseUrl: string
  apiKey: string
  apiSecret: string
  timeoutMs: number
  now: () => Date
}

/** Refresh this long before the stated expiry, so a token never dies between our check and its use. */
const EXPIRY_MARGIN_MS = 60_000

export class NswAccessToken {
  private cached: { token: string; expiresAt: number } | null = null
  private refreshing: Promise<string> | null = null

  constructor(private readonly source: TokenSource) {}

  get(): Promise<string> {
    if (this.cached && this.source.now().getTime() < this.cached.expiresAt) return Promise.resolve(this.cached.token)
    this.refreshing ??= this.fetchToken().finally(() => { this.refreshing = null })
    return this.refreshing
  }

  /** The gateway refused the token (revoked early): the next get() fetches a fresh one. */
  forget(): void {
    this.cached = null
  }

  private async fetchToken(): Promise<string> {
    const { baseUrl, apiKey, apiSecret, timeoutMs } = this.source
    const res = await fetch(`${baseUrl}/oauth/client_credential/accesstoken?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!res.ok) throw new RegisterUnavailable(`its token endpoint answered ${res.status}${res.status === 401 ? ' (the API key or secret was refused)' : ''}`)
    const body = (await res.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null
    if (!body || typeof body.access_token !== 'string' || !body.access_token) throw new RegisterUnavailable('its token endpoint gave no access token')
    // The gateway sends expires_in as a number or a numeric string (seconds).
    const lifetimeS = Number(body.expires_in)
    const lifetimeMs = Number.isFinite(lifetimeS) && lifetimeS > 0 ? lifetimeS * 1000 : 0
    this.cached = { token: body.access_token, expiresAt: this.source.now().getTime() + Math.max(0, lifetimeMs - EXPIRY_MARGIN_MS) }
    return body.access_token
  }
}
