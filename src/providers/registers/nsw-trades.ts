// NSW Fair Trading's Trades Register API (api.nsw.gov.au, product "Trades Register API"): a licence
// is looked up by its number. The contract below is taken from public client code, as the product's
// own documentation sits behind the portal's sign-in; the tests' local server speaks exactly this:
//   GET {base}/oauth/client_credential/accesstoken?grant_type=client_credentials
//       Authorization: Basic base64(apiKey:apiSecret)  ->  { access_token, expires_in (seconds) }
//   GET {base}/tradesregister/v1/verify?licenceNumber=<number>
//       Authorization: Bearer <token>, apikey: <apiKey>  ->  [{ licenceID, licensee, licenceNumber,
//       licenceType, status, suburb, postcode, expiryDate }]; [] or 404 = no such licence.
//
// Outcomes: valid = status Current and the expiry not past (NSW date); expired = any other status
// (Expired, and also Cancelled or Suspended: the licence is known but not in force, which is what
// 'expired' means to dispatch and verify; the detail names the register's own status) or an expiry
// in the past; unknown = no record; unavailable = no usable answer (network, timeout, 5xx, a token
// refused, malformed JSON). A check never throws: an unreachable register must not fail the call.
// The register holds licences only, so the ABN is never checked here, and the licence class is not
// compared (the detail names the register's licence type for the owner to compare).
import { localDate } from '../../core/zoned-time.js'
import type { RegisterCheck, RegisterCheckRequest, RegisterOutcome, RegisterProvider } from './provider.js'
import { NswAccessToken, RegisterUnavailable } from './nsw-token.js'

export const NSW_TRADES_DEFAULT_BASE_URL = 'https://api.onegov.nsw.gov.au'
const SOURCE = 'nsw-trades-register'
const REGISTER = 'The NSW Trades Register'
const NSW_TIME_ZONE = 'Australia/Sydney'

export interface NswTradesConfig {
  apiKey: string
  apiSecret: string
  baseUrl?: string
  /** Per request (token and verify); the owner is waiting on the answer. */
  timeoutMs?: number
  now?: () => Date
}

interface LicenceRecord { licenceNumber?: unknown; licensee?: unknown; licenceType?: unknown; status?: unknown; expiryDate?: unknown }

/** "dd/mm/yyyy" or ISO "yyyy-mm-dd" (a time part ignored) as YYYY-MM-DD; null when neither or not a real date. */
export function parseRegisterDate(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value.trim())
  const iso = dmy ? `${dmy[3]}-${dmy[2]!.padStart(2, '0')}-${dmy[1]!.padStart(2, '0')}` : /^\d{4}-\d{2}-\d{2}/.exec(value.trim())?.[0]
  if (!iso) return null
  const d = new Date(`${iso}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : null
}

const sameNumber = (a: string, b: string) => a.replace(/\s/g, '').toUpperCase() === b.replace(/\s/g, '').toUpperCase()
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)

export class NswTradesRegister implements RegisterProvider {
  readonly name = SOURCE
  private readonly baseUrl: string
  private readonly timeoutMs: number
  private readonly now: () => Date
  private readonly token: NswAccessToken

  constructor(private readonly config: NswTradesConfig) {
    this.baseUrl = (config.baseUrl ?? NSW_TRADES_DEFAULT_BASE_URL).replace(/\/$/, '')
    this.timeoutMs = config.timeoutMs ?? 5_000
    this.now = config.now ?? (() => new Date())
    this.token = new NswAccessToken({ baseUrl: this.baseUrl, apiKey: config.apiKey, apiSecret: config.apiSecret, timeoutMs: this.timeoutMs, now: this.now })
  }

  async check(request: RegisterCheckRequest): Promise<RegisterCheck> {
    const abnNote = request.abn ? ' The ABN is not checked: the NSW Trades Register holds licences, not ABNs.' : ''
    const answer = (outcome: RegisterOutcome, checked: boolean, detail: string): RegisterCheck => ({ checked, source: SOURCE, outcome, detail: detail + abnNote })
    const number = request.licenceNumber?.trim()
    if (!number) return answer('not_checked', false, 'Recorded as given: no licence number was given, so the NSW Trades Register was not consulted.')
    if (request.licenceState !== 'NSW') {
      const state = request.licenceState ? `this licence is ${request.licenceState}` : 'no issuing state was given'
      return answer('not_checked', false, `Recorded as given: not checked, as the NSW Trades Register covers NSW licences only (${state}).`)
    }
    let records: LicenceRecord[]
    try {
      records = await this.lookUp(number)
    } catch (error) {
      const why = error instanceof RegisterUnavailable ? error.message : error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.timeoutMs / 1000} s` : 'the connection failed'
      return answer('unavailable', false, `${REGISTER} could not be reached (${why}); the licence details are recorded as given. Verify again later to check them.`)
    }
    const matching = records.filter((r) => typeof r.licenceNumber !== 'string' || sameNumber(r.licenceNumber, number))
    if (matching.length === 0) return answer('unknown', true, `${REGISTER} has no licence numbered ${number}. Check the number with the subcontractor.`)
    const today = localDate(this.now(), NSW_TIME_ZONE)
    const judged = matching.map((r) => this.judge(r, number, today))
    const best = judged.find((j) => j.outcome === 'valid') ?? judged.sort((a, b) => (b.expiry ?? '').localeCompare(a.expiry ?? ''))[0]!
    return answer(best.outcome, true, best.detail)
  }

  private judge(r: LicenceRecord, number: string, today: string): { outcome: 'valid' | 'expired'; expiry: string | null; detail: string } {
    const status = text(r.status) ?? 'no status'
    const expiry = parseRegisterDate(r.expiryDate)
    const type = text(r.licenceType)
    const holder = text(r.licensee)
    const what = `licence ${number}${type ? ` (${type})` : ''}${holder ? ` held by ${holder}` : ''}`
    const expiryWords = expiry ? `, expiry ${expiry}` : text(r.expiryDate) ? `, expiry given as "${text(r.expiryDate)}"` : ''
    if (status.toLowerCase() !== 'current') {
      return { outcome: 'expired', expiry, detail: `${REGISTER} shows ${what} as ${status}${expiryWords}: it is not in force.` }
    }
    if (expiry && expiry < today) return { outcome: 'expired', expiry, detail: `${REGISTER} shows ${what} as Current, but its expiry date ${expiry} has passed.` }
    return { outcome: 'valid', expiry, detail: `${REGISTER} shows ${what} as Current${expiryWords}.` }
  }

  /** The licence records for the number; throws RegisterUnavailable (or a fetch error) when there is no usable answer. */
  private async lookUp(number: string): Promise<LicenceRecord[]> {
    let res = await this.verifyRequest(number)
    if (res.status === 401) {
      // A token revoked before its stated expiry: one fresh token, one more try.
      this.token.forget()
      res = await this.verifyRequest(number)
    }
    if (res.status === 404) return []
    if (!res.ok) throw new RegisterUnavailable(`it answered ${res.status}`)
    const body: unknown = await res.json().catch(() => undefined)
    if (!Array.isArray(body)) throw new RegisterUnavailable('its answer was not a list of licences')
    return body.filter((r): r is LicenceRecord => typeof r === 'object' && r !== null)
  }

  private async verifyRequest(number: string): Promise<Response> {
    const token = await this.token.get()
    return fetch(`${this.baseUrl}/tradesregister/v1/verify?licenceNumber=${encodeURIComponent(number)}`, {
      headers: { authorization: `Bearer ${token}`, apikey: this.config.apiKey, accept: 'application/json' },
      signal: AbortSignal.timeout(this.timeoutMs),
    })
  }
}
