// The NSW Trades Register adapter (issue 23, item 1) against a local server speaking the register's
// token and verify endpoints: valid, expired (and cancelled), unknown, the register unavailable (503,
// a closed port, no answer in time, the key refused), the token kept across checks and refreshed
// only after it expires (or once when revoked early), and non-NSW licences left unchecked. Then once end to end: the service
// started with the adapter, subcontractors.register over REST showing the register's answer, and
// verify refusing (and recording) a licence the register says is cancelled, which dispatch then
// leaves out.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NswTradesRegister, parseRegisterDate } from '../src/providers/registers/nsw-trades.js'
import type { RegisterCheckRequest } from '../src/providers/registers/provider.js'
import { startLocalNswRegister, type LocalNswRegister, type NswLicence } from './helpers/nsw-trades-server.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

let register: LocalNswRegister
beforeAll(async () => { register = await startLocalNswRegister() })
afterAll(async () => { await register?.close() })

const licence = (overrides: Partial<NswLicence>): NswLicence => ({
  licenceID: '1-ABC', licensee: 'SAM SPARKS', licenceNumber: '123456C', licenceType: 'Contractor Licence', status: 'Current',
  suburb: 'PARRAMATTA', postcode: '2150', expiryDate: '31/05/2099', ...overrides,
})
const nsw = (licenceNumber: string, extra: Partial<RegisterCheckRequest> = {}): RegisterCheckRequest =>
  ({ abn: '51824753556', licenceNumber, licenceClass: 'Electrician', licenceState: 'NSW', ...extra })
const adapter = (extra: { baseUrl?: string; apiSecret?: string; timeoutMs?: number; now?: () => Date } = {}) =>
  new NswTradesRegister({ apiKey: register.apiKey, apiSecret: extra.apiSecret ?? register.apiSecret, baseUrl: extra.baseUrl ?? register.url, timeoutMs: extra.timeoutMs, now: extra.now })

describe('NswTradesRegister against a local register', () => {
  it('valid: status Current with an expiry ahead; the ABN is said not to be checked', async () => {
    register.licences = [licence({ licenceNumber: '100001C' })]
    const check = await adapter().check(nsw('100001C'))
    expect(check).toMatchObject({ checked: true, source: 'nsw-trades-register', outcome: 'valid' })
    expect(check.detail).toContain('licence 100001C (Contractor Licence) held by SAM SPARKS as Current, expiry 2099-05-31')
    expect(check.detail).toContain('The ABN is not checked')
  })

  it('expired: status Expired, or Current with an ISO expiry in the past; the detail gives the expiry date', async () => {
    register.licences = [
      licence({ licenceNumber: '100002C', status: 'Expired', expiryDate: '28/02/2024' }),
      licence({ licenceNumber: '100003C', status: 'Current', expiryDate: '2024-03-31' }),
    ]
    const expired = await adapter().check(nsw('100002C'))
    expect(expired).toMatchObject({ checked: true, outcome: 'expired' })
    expect(expired.detail).toContain('as Expired, expiry 2024-02-28')
    const lapsed = await adapter().check(nsw('100003C'))
    expect(lapsed).toMatchObject({ checked: true, outcome: 'expired' })
    expect(lapsed.detail).toContain('its expiry date 2024-03-31 has passed')
  })

  it('cancelled or suspended is never valid: outcome expired, the detail naming the register status', async () => {
    register.licences = [licence({ licenceNumber: '100004C', status: 'Cancelled' }), licence({ licenceNumber: '100005C', status: 'Suspended' })]
    for (const [number, status] of [['100004C', 'Cancelled'], ['100005C', 'Suspended']]) {
      const check = await adapter().check(nsw(number!))
      expect(check.outcome).toBe('expired')
      expect(check.detail).toContain(`as ${status}, expiry 2099-05-31: it is not in force`)
    }
  })

  it('unknown: the register has no such licence (an empty list)', async () => {
    register.licences = []
    const check = await adapter().check(nsw('999999X'))
    expect(check).toMatchObject({ checked: true, outcome: 'unknown' })
    expect(check.detail).toContain('has no licence numbered 999999X')
  })

  it('unavailable, never a throw: the register answering 503', async () => {
    register.failWith = 503
    try {
      const check = await adapter().check(nsw('100001C'))
      expect(check).toMatchObject({ checked: false, outcome: 'unavailable' })
      expect(check.detail).toContain('could not be reached (its token endpoint answered 503)')
      expect(check.detail).toContain('the licence details are recorded as given')
    } finally {
      register.failWith = null
    }
  })

  it('unavailable: a closed port, no answer within the timeout, and a refused API secret', async () => {
    const closed = await closedPortUrl()
    const refusedConnection = await adapter({ baseUrl: closed }).check(nsw('100001C'))
    expect(refusedConnection).toMatchObject({ checked: false, outcome: 'unavailable' })
    expect(refusedConnection.detail).toContain('could not be reached (the connection failed)')

    const silent = await silentServer()
    try {
      const started = Date.now()
      const slow = await adapter({ baseUrl: silent.url, timeoutMs: 300 }).check(nsw('100001C'))
      expect(slow.outcome).toBe('unavailable')
      expect(slow.detail).toContain('no answer within 0.3 s')
      expect(Date.now() - started).toBeLessThan(3_000)
    } finally {
      await silent.close()
    }

    const wrongSecret = await adapter({ apiSecret: 'not-the-secret' }).check(nsw('100001C'))
    expect(wrongSecret.outcome).toBe('unavailable')
    expect(wrongSecret.detail).toContain('answered 401 (the API key or secret was refused)')
  })

  it('keeps the token across checks (one token request at the server), shares one refresh, and refreshes after expiry', async () => {
    register.licences = [licence({ licenceNumber: '100001C' })]
    let now = new Date('2026-11-26T01:00:00Z')
    const provider = adapter({ now: () => now })
    const before = { ...register.counts }
    expect((await provider.check(nsw('100001C'))).outcome).toBe('valid')
    expect((await provider.check(nsw('100001C'))).outcome).toBe('valid')
    expect(register.counts.token - before.token).toBe(1)
    expect(register.counts.verify - before.verify).toBe(2)

    const fresh = adapter({ now: () => now })
    const together = await Promise.all([1, 2, 3].map(() => fresh.check(nsw('100001C'))))
    expect(together.map((c) => c.outcome)).toEqual(['valid', 'valid', 'valid'])
    expect(register.counts.token - before.token).toBe(2)

    now = new Date(now.getTime() + 12 * 3_600_000 + 59 * 60_000) // past 43,199 s less the refresh margin
    expect((await provider.check(nsw('100001C'))).outcome).toBe('valid')
    expect(register.counts.token - before.token).toBe(3)
    expect(register.counts.refused - before.refused).toBe(0)
  })

  it('a token revoked before its expiry: the verify answers 401, one fresh token, one more try', async () => {
    register.licences = [licence({ licenceNumber: '100001C' })]
    const provider = adapter()
    expect((await provider.check(nsw('100001C'))).outcome).toBe('valid')
    const before = { ...register.counts }
    register.revokeTokens()
    expect((await provider.check(nsw('100001C'))).outcome).toBe('valid')
    expect({ token: register.counts.token - before.token, verify: register.counts.verify - before.verify, refused: register.counts.refused - before.refused })
      .toEqual({ token: 1, verify: 2, refused: 1 })
  })

  it('does not check a licence of another state (nor one with no state), and asks the register nothing', async () => {
    const before = { ...register.counts }
    const vic = await adapter().check(nsw('100001C', { licenceState: 'VIC' }))
    expect(vic).toMatchObject({ checked: false, outcome: 'not_checked', source: 'nsw-trades-register' })
    expect(vic.detail).toContain('covers NSW licences only (this licence is VIC)')
    expect(vic.detail).toContain('The ABN is not checked')
    const noState = await adapter().check(nsw('100001C', { licenceState: null, abn: null }))
    expect(noState.detail).toBe('Recorded as given: not checked, as the NSW Trades Register covers NSW licences only (no issuing state was given).')
    expect(register.counts).toEqual(before)
  })

  it('reads expiry dates as dd/mm/yyyy or ISO, and nothing else', () => {
    expect(parseRegisterDate('01/07/2027')).toBe('2027-07-01')
    expect(parseRegisterDate('1/7/2027')).toBe('2027-07-01')
    expect(parseRegisterDate('2027-07-01T00:00:00')).toBe('2027-07-01')
    expect(parseRegisterDate('31/02/2027')).toBeNull()
    expect(parseRegisterDate('July 2027')).toBeNull()
    expect(parseRegisterDate(null)).toBeNull()
  })
})

describe('end to end: the service with the NSW register configured', () => {
  let app: TestApp
  let company: Awaited<ReturnType<typeof onboard>>
  beforeAll(async () => {
    app = await startTestApp({ config: { NSW_TRADES_API_KEY: register.apiKey, NSW_TRADES_API_SECRET: register.apiSecret, NSW_TRADES_BASE_URL: register.url } })
    company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  })
  afterAll(async () => { await app?.stop() })

  const registerSub = (licenceNumber: string) => app.call('POST', '/api/v1/subcontractors', {
    key: company.api_key,
    body: {
      name: 'Sam Sparks', trades: ['electrical'], phone: '0412 345 678', abn: '51 824 753 556', licence_number: licenceNumber, licence_state: 'NSW',
      licence_expiry: '2099-05-31', insurer: 'QBE', policy_number: 'PL-1', insurance_expiry: '2099-05-31',
    },
  })

  it('subcontractors.register over REST shows the register\'s answer; verify passes a current licence and refuses a cancelled one, recording both; dispatch leaves the refused one out', async () => {
    register.licences = [licence({ licenceNumber: '200001C' })]
    const created = await registerSub('200001C')
    expect(created.status).toBe(201)
    expect(created.body.subcontractor.register_check).toMatchObject({ checked: true, source: 'nsw-trades-register', outcome: 'valid' })
    expect(created.body.subcontractor.register_check.detail).toContain('as Current')
    const id = created.body.subcontractor.id

    const verified = await app.call('POST', `/api/v1/subcontractors/${id}/verify`, { key: company.api_key, body: { action: 'verify' } })
    expect(verified.status).toBe(200)
    expect(verified.body.verification.register_check.outcome).toBe('valid')
    expect(verified.body.subcontractor.status).toBe('verified')

    // Cancelled since: the re-check refuses, names what the register said, and keeps the status.
    register.licences = [licence({ licenceNumber: '200001C', status: 'Cancelled' })]
    const refused = await app.call('POST', `/api/v1/subcontractors/${id}/verify`, { key: company.api_key, body: { action: 'verify', reason: 'yearly check' } })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ error: 'conflict', current_status: 'verified', register_check: { outcome: 'expired', checked: true } })
    expect(refused.body.message).toContain('was not verified: The NSW Trades Register shows licence 200001C')
    expect(refused.body.message).toContain('as Cancelled')
    const [stored] = await app.owner`select status, register_check from subcontractors where id = ${id}`
    expect(stored).toMatchObject({ status: 'verified', register_check: { outcome: 'expired' } })
    const history = await app.owner`select from_status, to_status, reason, register_check->>'outcome' as outcome from subcontractor_verifications where subcontractor_id = ${id} order by at`
    expect(history).toEqual([
      { from_status: 'pending', to_status: 'verified', reason: null, outcome: 'valid' },
      { from_status: 'verified', to_status: 'verified', reason: 'verify refused by the register check; reason given: yearly check', outcome: 'expired' },
    ])

    // Still verified, with its typed expiry ahead, but the register's word keeps it out of dispatch.
    const client = await connectHttp(app, company.api_key)
    try {
      const { lead } = await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654' })
      const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Switchboard upgrade', amount: 440, address: '12 Church St, Parramatta NSW 2150' })
      const nobody = await toolError(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [id], dry_run: true })
      expect(nobody.error).toBe('conflict')
      expect(nobody.excluded).toEqual([{ subcontractor_id: id, name: 'Sam Sparks', reason: expect.stringContaining('licence expired at the register: The NSW Trades Register shows licence 200001C') }])
    } finally {
      await client.close()
    }
  })

  it('an unknown licence is registered with that answer, and an unreachable register leaves the details recorded as given', async () => {
    register.licences = []
    const unknown = await registerSub('200002C')
    expect(unknown.status).toBe(201)
    expect(unknown.body.subcontractor.register_check).toMatchObject({ outcome: 'unknown', checked: true })

    register.failWith = 503
    try {
      const down = await registerSub('200003C')
      expect(down.status).toBe(201)
      expect(down.body.subcontractor.register_check).toMatchObject({ outcome: 'unavailable', checked: false })
      const verified = await app.call('POST', `/api/v1/subcontractors/${down.body.subcontractor.id}/verify`, { key: company.api_key, body: { action: 'verify' } })
      expect(verified.status).toBe(200)
      expect(verified.body.verification.register_check.detail).toContain('recorded as given')
    } finally {
      register.failWith = null
    }
  })
})

/** A URL on a port nothing listens on (opened, then closed). */
async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

/** A server that accepts connections and never answers. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(() => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
