// A local HTTP server speaking the NSW Trades Register API as src/providers/registers/nsw-trades.ts
// describes it: the gateway's client-credentials token endpoint (Basic key:secret checked) and the
// licence verify endpoint (Bearer token and apikey header checked). Licences are whatever the test
// puts in `licences`; `failWith` makes every answer that status; requests are counted per endpoint.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface NswLicence {
  licenceID: string
  licensee: string
  licenceNumber: string
  licenceType: string
  status: string
  suburb: string
  postcode: string
  expiryDate: string
}

export interface LocalNswRegister {
  url: string
  apiKey: string
  apiSecret: string
  licences: NswLicence[]
  /** When set, both endpoints answer this status (e.g. 503). */
  failWith: number | null
  /** Seconds each new token lives. */
  tokenLifetimeS: number
  counts: { token: number; verify: number; refused: number }
  /** Forget every token issued so far, as a gateway revoking them early would. */
  revokeTokens(): void
  close(): Promise<void>
}

export async function startLocalNswRegister(): Promise<LocalNswRegister> {
  const issued = new Set<string>()
  const register: LocalNswRegister = {
    url: '', apiKey: 'nsw-test-key', apiSecret: 'nsw-test-secret', licences: [], failWith: null, tokenLifetimeS: 43_199,
    counts: { token: 0, verify: 0, refused: 0 }, revokeTokens: () => issued.clear(), close: async () => {},
  }
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local')
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (register.failWith) return reply(register.failWith, { fault: 'Service Unavailable' })
    if (url.pathname === '/oauth/client_credential/accesstoken') {
      register.counts.token++
      const basic = `Basic ${Buffer.from(`${register.apiKey}:${register.apiSecret}`).toString('base64')}`
      if (url.searchParams.get('grant_type') !== 'client_credentials' || req.headers.authorization !== basic) {
        register.counts.refused++
        return reply(401, { ErrorCode: 'invalid_client', Error: 'ClientId is Invalid' })
      }
      const token = `tok-${register.counts.token}-${Math.random().toString(36).slice(2)}`
      issued.add(token)
      return reply(200, { access_token: token, token_type: 'BearerToken', expires_in: String(register.tokenLifetimeS), status: 'approved' })
    }
    if (url.pathname === '/tradesregister/v1/verify') {
      register.counts.verify++
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
      if (!bearer || !issued.has(bearer) || req.headers.apikey !== register.apiKey) {
        register.counts.refused++
        return reply(401, { fault: 'Invalid access token or apikey' })
      }
      const number = url.searchParams.get('licenceNumber') ?? ''
      return reply(200, register.licences.filter((l) => l.licenceNumber === number))
    }
    reply(404, { fault: 'no such resource' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  register.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  register.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  return register
}
