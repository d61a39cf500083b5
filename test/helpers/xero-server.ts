// A local HTTP server speaking the Xero endpoints src/providers/accounting/xero*.ts uses: the login
// host's authorise page (it "grants" at once, redirecting to redirect_uri with a code and the state),
// the identity host's token endpoint (authorisation_code and refresh_token grants, Basic client
// auth, refresh tokens rotated: a used one is refused with invalid_grant), GET /connections, and
// api.xro/2.0 Contacts (GET with a where clause of Field=="value" joined by OR; PUT), Invoices,
// CreditNotes, Payments (PUT) and Items (GET). Writes honour Idempotency-Key as Xero does: the same
// key answers the first result and makes nothing new. Every API answer carries X-MinLimit-Remaining
// and X-DayLimit-Remaining. `failNext` scripts the next answers to a path (429 with Retry-After, or
// a 500 after the record was stored, as a lost answer would be).
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { tool } from './tools.js'

export interface XeroRecord { [field: string]: unknown }

export interface ScriptedFailure { status: number; headers?: Record<string, string>; afterStoring?: boolean }

export interface LocalXero {
  url: string
  apiBaseUrl: string
  clientId: string
  clientSecret: string
  tenantId: string
  tenantName: string
  contacts: XeroRecord[]
  invoices: XeroRecord[]
  creditNotes: XeroRecord[]
  payments: XeroRecord[]
  /** Requests per endpoint: token grants by type, API calls by METHOD /Path. */
  counts: Record<string, number>
  /** Idempotency-Key of every write, in order (repeats included). */
  idempotencyKeys: string[]
  /** How long the token endpoint takes to answer (to make concurrent refreshes overlap). */
  tokenDelayMs: number
  /** Seconds each access token lives. */
  accessLifetimeS: number
  /** Every access and refresh token issued, to search the database for. */
  issuedTokens: string[]
  /** How long each write takes before it is stored (so a crash test can kill the worker mid-batch). */
  writeDelayMs: number
  /** A record made in Xero by someone else (the bookkeeper): stamped as changed now. */
  add(collection: 'contacts' | 'payments', record: XeroRecord): XeroRecord
  failNext(path: string, ...failures: ScriptedFailure[]): void
  /** Forget every refresh token issued, as Xero does when the owner disconnects the app. */
  revokeRefreshTokens(): void
  close(): Promise<void>
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Xero's where clause, as far as the adapter writes it: Field=="value" (OR Field=="value")*. */
function matches(record: XeroRecord, where: string): boolean {
  return where.split(' OR ').some((clause) => {
    const m = /^(\w+)=="(.*)"$/.exec(clause.trim())
    if (!m) throw new Error(`where clause not understood: ${clause}`)
    return String(record[m[1]!] ?? '').toLowerCase() === m[2]!.toLowerCase()
  })
}

/** Strictly increasing change times, so "changed since" and its order are exact. */
let lastChange = 0
const changedNow = () => {
  lastChange = Math.max(Date.now(), lastChange + 1)
  return new Date(lastChange).toISOString()
}

/** GET of a changed-since list as Xero pages it: If-Modified-Since, ordered by UpdatedDateUTC, page and pageSize. */
function changedPage(records: XeroRecord[], req: IncomingMessage, url: URL): XeroRecord[] {
  const since = req.headers['if-modified-since'] ? Date.parse(String(req.headers['if-modified-since'])) : null
  const pageSize = Number(url.searchParams.get('pageSize') ?? 100)
  const page = Number(url.searchParams.get('page') ?? 1)
  const changed = records
    .filter((r) => since === null || Date.parse(String(r.UpdatedDateUTC)) > since)
    .sort((a, b) => Date.parse(String(a.UpdatedDateUTC)) - Date.parse(String(b.UpdatedDateUTC)))
  return changed.slice((page - 1) * pageSize, page * pageSize)
}

export async function startLocalXero(): Promise<LocalXero> {
  const codes = new Map<string, string>() // code -> redirect_uri
  const accessTokens = new Set<string>()
  const refreshTokens = new Set<string>()
  const byIdempotencyKey = new Map<string, { status: number; body: unknown }>()
  const scripted = new Map<string, ScriptedFailure[]>()
  let minute = 60
  let day = 5000
  const xero: LocalXero = {
    url: '', apiBaseUrl: '', clientId: 'xero-client-id', clientSecret: 'xero-client-secret', tenantId: randomUUID(), tenantName: 'Sparks Electrical Pty Ltd',
    contacts: [], invoices: [], creditNotes: [], payments: [], counts: {}, idempotencyKeys: [], tokenDelayMs: 0, accessLifetimeS: 1800, issuedTokens: [], writeDelayMs: 0,
    add: (collection, record) => {
      const id = collection === 'contacts' ? 'ContactID' : 'PaymentID'
      const made = { [id]: randomUUID(), ...record, UpdatedDateUTC: changedNow() }
      xero[collection].push(made)
      return made
    },
    failNext: (path, ...failures) => scripted.set(path, [...(scripted.get(path) ?? []), ...failures]),
    revokeRefreshTokens: () => refreshTokens.clear(),
    close: async () => {},
  }
  const count = (name: string) => { xero.counts[name] = (xero.counts[name] ?? 0) + 1 }
  const issue = () => {
    const access = `xat-${randomUUID()}`
    const refresh = `xrt-${randomUUID()}`
    accessTokens.add(access)
    refreshTokens.add(refresh)
    xero.issuedTokens.push(access, refresh)
    return { access_token: access, refresh_token: refresh, expires_in: xero.accessLifetimeS, token_type: 'Bearer', scope: 'offline_access accounting.transactions accounting.contacts' }
  }

  const collections: Record<string, { list: () => XeroRecord[]; id: string; number?: string }> = {
    Contacts: { list: () => xero.contacts, id: 'ContactID' },
    Invoices: { list: () => xero.invoices, id: 'InvoiceID', number: 'InvoiceNumber' },
    CreditNotes: { list: () => xero.creditNotes, id: 'CreditNoteID', number: 'CreditNoteNumber' },
    Payments: { list: () => xero.payments, id: 'PaymentID' },
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://localhost')
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(body === undefined ? '' : JSON.stringify(body))
    }
    const body = await readBody(req)

    if (url.pathname === '/identity/connect/authorize') {
      count('authorize')
      const code = `code-${randomUUID()}`
      codes.set(code, url.searchParams.get('redirect_uri')!)
      const back = new URL(url.searchParams.get('redirect_uri')!)
      back.searchParams.set('code', code)
      back.searchParams.set('state', url.searchParams.get('state')!)
      res.writeHead(302, { location: back.toString() })
      return res.end()
    }

    if (url.pathname === '/connect/token' && req.method === 'POST') {
      const form = new URLSearchParams(body)
      const grant = form.get('grant_type')!
      count(`token:${grant}`)
      if (xero.tokenDelayMs) await new Promise((r) => setTimeout(r, xero.tokenDelayMs))
      if (req.headers.authorization !== `Basic ${Buffer.from(`${xero.clientId}:${xero.clientSecret}`).toString('base64')}`) return send(401, { error: 'invalid_client' })
      if (grant === 'authorization_code') {
        const code = form.get('code')!
        if (codes.get(code) !== form.get('redirect_uri')) return send(400, { error: 'invalid_grant' })
        codes.delete(code)
        return send(200, issue())
      }
      if (grant === 'refresh_token') {
        // Rotation: the refresh token used is spent; reusing it is invalid_grant, as at Xero.
        if (!refreshTokens.delete(form.get('refresh_token')!)) return send(400, { error: 'invalid_grant' })
        return send(200, issue())
      }
      return send(400, { error: 'unsupported_grant_type' })
    }

    const bearer = req.headers.authorization?.replace(/^Bearer /, '')
    if (!bearer || !accessTokens.has(bearer)) return send(401, { Title: 'Unauthorized', Detail: 'TokenExpired: token expired or unknown' })

    if (url.pathname === '/connections' && req.method === 'GET') {
      count('connections')
      return send(200, [{ id: randomUUID(), tenantId: xero.tenantId, tenantType: 'ORGANISATION', tenantName: xero.tenantName }])
    }

    const api = /^\/api\.xro\/2\.0\/(\w+)$/.exec(url.pathname)
    if (!api) return send(404, { Message: 'not found' })
    if (req.headers['xero-tenant-id'] !== xero.tenantId) return send(403, { Title: 'Forbidden', Detail: 'AuthorizationUnsuccessful' })
    const resource = api[1]!
    count(`${req.method} /${resource}`)
    minute -= 1
    day -= 1
    const limits = { 'x-minlimit-remaining': String(minute), 'x-daylimit-remaining': String(day) }
    const failure = scripted.get(resource)?.shift()
    if (failure && !failure.afterStoring) return send(failure.status, { Title: 'scripted', Detail: `scripted ${failure.status}` }, { ...limits, ...failure.headers })

    if (req.method === 'GET' && resource === 'Contacts') {
      const where = url.searchParams.get('where')
      if (where) return send(200, { Contacts: xero.contacts.filter((c) => matches(c, where)) }, limits)
      return send(200, { Contacts: changedPage(xero.contacts, req, url) }, limits)
    }
    if (req.method === 'GET' && resource === 'Payments') return send(200, { Payments: changedPage(xero.payments, req, url) }, limits)
    if (req.method === 'GET' && resource === 'Items') return send(200, { Items: [] }, limits)

    const collection = collections[resource]
    if (!collection || (req.method !== 'PUT' && req.method !== 'POST')) return send(405, { Message: 'method not allowed' })
    const key = req.headers['idempotency-key'] as string | undefined
    if (key) xero.idempotencyKeys.push(key)
    const remembered = key ? byIdempotencyKey.get(`${resource}:${key}`) : undefined
    if (remembered) return send(remembered.status, remembered.body, limits)
    if (xero.writeDelayMs) await new Promise((r) => setTimeout(r, xero.writeDelayMs))
    const again = key ? byIdempotencyKey.get(`${resource}:${key}`) : undefined // the same key sent again while this one waited
    if (again) return send(again.status, again.body, limits)
    const payload = JSON.parse(body) as Record<string, XeroRecord[]>
    const created = payload[resource]!.map((r) => {
      if (collection.number && collection.list().some((x) => x[collection.number!] === r[collection.number!])) {
        throw new Error(`duplicate ${collection.number} ${String(r[collection.number!])}`)
      }
      const record = { ...r, [collection.id]: randomUUID(), UpdatedDateUTC: changedNow() }
      collection.list().push(record)
      return record
    })
    const answer = { status: 200, body: { [resource]: created } }
    if (key) byIdempotencyKey.set(`${resource}:${key}`, answer)
    if (failure) return send(failure.status, { Title: 'scripted', Detail: `scripted ${failure.status} after storing` }, { ...limits, ...failure.headers })
    return send(answer.status, answer.body, limits)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  xero.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  xero.apiBaseUrl = `${xero.url}/api.xro/2.0`
  xero.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  return xero
}

/** Connects the company behind `client` to the local Xero through the OAuth link and callback; the connection's id. */
export async function connectLocalXero(client: Client, xero: LocalXero): Promise<string> {
  const link = await tool(client, 'integrations.connect', { provider: 'xero' })
  const granted = await fetch(link.authorise_url, { redirect: 'manual' })
  const callback = await fetch(granted.headers.get('location')!)
  if (callback.status !== 200) throw new Error(`the callback answered ${callback.status}: ${await callback.text()}`)
  const { connections } = await tool(client, 'integrations.list_connections', {})
  return connections.find((c: { tenant_id: string }) => c.tenant_id === xero.tenantId).id
}

/** The settings that point the app at the local Xero. */
export function localXeroConfig(xero: LocalXero, webhookKey: string) {
  return {
    XERO_CLIENT_ID: xero.clientId, XERO_CLIENT_SECRET: xero.clientSecret, XERO_API_BASE_URL: xero.apiBaseUrl, XERO_IDENTITY_URL: xero.url,
    XERO_LOGIN_URL: xero.url, XERO_WEBHOOK_KEY: webhookKey,
  }
}
