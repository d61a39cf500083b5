// One outbound webhook POST, safe against SSRF. Two layers:
//  1. checkWebhookUrl: a synchronous, syntactic check at subscribe time (scheme, credentials,
//     IP literals in non-public ranges, localhost names). It cannot see what a name resolves to.
//  2. postWebhook: the same check again (the deployment setting may have changed since the
//     subscription was stored), then the request goes through request-filtering-agent, which
//     validates the address inside the socket's DNS lookup, i.e. the address actually connected
//     to. A DNS answer that changes between check and connect (rebinding) is therefore caught.
// Redirects are never followed (node:http does not follow them; a 3xx is reported as a failure).
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { performance } from 'node:perf_hooks'
import { StringDecoder } from 'node:string_decoder'
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent'

export const MAX_WEBHOOK_URL_LENGTH = 2048
export const BODY_SNIPPET_BYTES = 1024
const MAX_RETRY_AFTER_SECONDS = 86_400
const USER_AGENT = 'tradie-ops-webhooks/1.0'

// Roughly the ranges ipaddr.js (used by the agent) treats as non-unicast, so a URL that passes
// here is not refused at connect for being an IP literal. Includes cloud metadata addresses
// (169.254.169.254 is link-local; fd00:ec2::254 is unique-local). Two lists because a BlockList
// matches IPv4 addresses against its IPv6 rules in mapped form: ::ffff:0:0/96 would block them all.
const blockedV4 = new BlockList()
const blockedV6 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network" / unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved + broadcast
] as const) blockedV4.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['::ffff:0:0', 96], // IPv4-mapped: never a legitimate webhook target
  ['::ffff:0:0:0', 96], // IPv4-translated (RFC 6145)
  ['64:ff9b::', 96], // NAT64 can reach any IPv4 address, private ones included
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 embeds an arbitrary IPv4 address
  ['fc00::', 7], // unique-local, incl. fd00:ec2::254
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) blockedV6.addSubnet(net, prefix, 'ipv6')

/** Subscribe-time check of a webhook URL. Returns a problem message, or null when acceptable. */
export function checkWebhookUrl(url: string, options: { allowPrivate: boolean }): string | null {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return `URL is longer than ${MAX_WEBHOOK_URL_LENGTH} characters`
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'URL is not a valid absolute URL'
  }
  if (parsed.protocol !== 'https:' && !(options.allowPrivate && parsed.protocol === 'http:')) {
    return 'URL must use https'
  }
  if (parsed.username !== '' || parsed.password !== '') return 'URL must not contain credentials'
  if (options.allowPrivate) return null
  // WHATWG URL has already normalised decimal/hex/octal IPv4 forms to dotted quads and
  // IPv6 to its compressed form in brackets; a trailing dot is still a valid FQDN spelling.
  const host = parsed.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return 'URL must not point at localhost'
  const family = isIP(host)
  if ((family === 4 && blockedV4.check(host, 'ipv4')) || (family === 6 && blockedV6.check(host, 'ipv6'))) {
    return 'URL must not point at a private, loopback, link-local or metadata address'
  }
  return null
}

export interface PostOutcome {
  ok: boolean
  status: number | null
  latencyMs: number
  bodySnippet: string
  retryAfterSeconds: number | null
  error: string | null
  redirected: boolean
}

export interface PostWebhookRequest {
  url: string
  body: string
  headers: Record<string, string>
  allowPrivate: boolean
  timeoutMs: number
  /** Resolver used at connect time (default dns.lookup); the agent still vets every answer. Tests inject one to simulate DNS. */
  lookup?: LookupFunction
}

// Keep-alive agents, created once per (scheme, allowPrivate). Nothing in the allow/deny lists:
// the only switch is the deployment's allowPrivate setting. `timeout` caps how long an idle
// pooled socket lives (Node also honours a server's Keep-Alive timeout hint).
type Agents = { http: http.Agent; https: https.Agent }
const agentCache = new Map<boolean, Agents>()
function agentsFor(allowPrivate: boolean): Agents {
  let agents = agentCache.get(allowPrivate)
  if (!agents) {
    const options = {
      keepAlive: true,
      timeout: 30_000,
      allowPrivateIPAddress: allowPrivate,
      allowMetaIPAddress: allowPrivate,
      allowIPAddressList: [],
      denyIPAddressList: [],
    }
    agents = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) }
    agentCache.set(allowPrivate, agents)
  }
  return agents
}

/** Retry-After as delta-seconds or an HTTP date, clamped to 0..86400; null when absent or unparseable. */
function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null
  const trimmed = value.trim()
  let seconds: number
  if (/^\d+$/.test(trimmed)) seconds = Number(trimmed)
  else {
    const at = Date.parse(trimmed)
    if (Number.isNaN(at)) return null
    seconds = Math.ceil((at - now) / 1000)
  }
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, seconds))
}

const FIXED_HEADERS = new Set(['content-type', 'user-agent', 'content-length', 'transfer-encoding'])

/**
 * POST one webhook attempt. Never throws for network-level problems: refused connections, DNS
 * failures, addresses refused by the filtering agent, TLS errors and timeouts all come back as
 * `ok: false, error: <message>`. Only a 2xx is ok; a 3xx is `redirected: true` and not followed.
 */
export async function postWebhook(request: PostWebhookRequest): Promise<PostOutcome> {
  const started = performance.now()
  const outcome: PostOutcome = {
    ok: false,
    status: null,
    latencyMs: 0,
    bodySnippet: '',
    retryAfterSeconds: null,
    error: null,
    redirected: false,
  }
  const fail = (error: string): PostOutcome => {
    outcome.error = error
    outcome.latencyMs = Math.round(performance.now() - started)
    return outcome
  }

  const problem = checkWebhookUrl(request.url, { allowPrivate: request.allowPrivate })
  if (problem) return fail(`refused: ${problem}`)
  const url = new URL(request.url)
  const secure = url.protocol === 'https:'
  const agents = agentsFor(request.allowPrivate)

  const headers: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (!FIXED_HEADERS.has(name.toLowerCase())) headers[name] = value
  }
  headers['Content-Type'] = 'application/json'
  headers['User-Agent'] = USER_AGENT
  headers['Content-Length'] = Buffer.byteLength(request.body)

  return new Promise<PostOutcome>((resolve) => {
    let settled = false
    const chunks: Buffer[] = []
    let received = 0
    let res: http.IncomingMessage | undefined

    const settle = (error: string | null): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // Decode only whole characters: a multi-byte character cut at the 1 KB mark is dropped.
      // NUL becomes U+FFFD because the snippet is stored in a Postgres text column, which rejects it.
      outcome.bodySnippet = new StringDecoder('utf8')
        .write(Buffer.concat(chunks).subarray(0, BODY_SNIPPET_BYTES))
        .replaceAll('\u0000', '\uFFFD')
      outcome.error = error
      outcome.ok = error === null && outcome.status !== null && outcome.status >= 200 && outcome.status < 300
      outcome.latencyMs = Math.round(performance.now() - started)
      resolve(outcome)
    }

    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      headers,
      ...(request.lookup ? { lookup: request.lookup } : {}),
    })

    // One deadline for connect + response headers + the first 1 KB of body.
    const timer = setTimeout(() => {
      const message = `timeout after ${request.timeoutMs} ms`
      settle(message)
      res?.destroy()
      req.destroy(new Error(message))
    }, request.timeoutMs)

    // Listeners stay attached after settling so late socket errors are swallowed, not thrown.
    req.on('error', (err: NodeJS.ErrnoException) => settle(err.code ? `${err.code}: ${err.message}` : err.message))
    req.on('response', (response) => {
      res = response
      const status = response.statusCode ?? null
      outcome.status = status
      outcome.redirected = status !== null && status >= 300 && status < 400
      const retryAfter = response.headers['retry-after']
      outcome.retryAfterSeconds = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, Date.now())
      response.on('data', (chunk: Buffer) => {
        if (settled) return
        chunks.push(chunk)
        received += chunk.length
        if (received >= BODY_SNIPPET_BYTES) {
          // Enough: stop reading rather than buffer an arbitrarily large body. The socket is
          // closed instead of returned to the pool, which is the price of not draining it.
          settle(null)
          response.destroy()
        }
      })
      response.on('end', () => settle(null))
      response.on('error', (err) => settle(err.message))
      // A connection dropped mid-body without 'end' (e.g. server reset) still settles.
      response.on('close', () => settle(response.complete ? null : 'connection closed before the response body ended'))
    })
    req.end(request.body)
  })
}
