// What every public page shares (app.ts sets nosniff on every response): one set of security
// headers for the server-rendered pages, the cross-site check for their form posts, the reading of
// their form fields, and the redaction of the credentials some page paths carry before a path is logged.
import type { Context } from 'koa'
import type { Deps } from '../core/deps.js'
import { AppError, validationError } from '../core/errors.js'
import { textProblem } from '../core/input-guard.js'

/**
 * The public pages (quote page, sandbox checkout and portal). Their URL is the credential, so it
 * must not reach another site: `same-origin` keeps the Referer at home (and, unlike `no-referrer`,
 * lets the browser send the page's real Origin on its own form posts). No script runs on them.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'same-origin',
  'X-Robots-Tag': 'noindex',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
}

export function setPageHeaders(ctx: Context): void {
  ctx.set(PAGE_SECURITY_HEADERS)
  ctx.type = 'html'
}

/**
 * Refuses a form post a browser sent from another site. Sec-Fetch-Site, when the browser sends it,
 * decides (it cannot be set by a page). Otherwise a present Origin must be this service's: its
 * public site root or the origin the request itself was sent to; "null" (sandboxed frames, data:
 * URLs) never is. A post with neither header did not come from a modern browser on another site
 * (curl, server-side clients), and the path token is still needed, so it goes through.
 */
export function refuseCrossSite(ctx: Context, deps: Deps): void {
  const fetchSite = ctx.get('sec-fetch-site')
  const origin = ctx.get('origin')
  // Built by hand: Koa 3's ctx.origin is the Origin header itself, not the request's own origin.
  const ownOrigin = `${ctx.protocol}://${ctx.host}`
  const allowed = fetchSite
    ? fetchSite === 'same-origin' || fetchSite === 'none'
    : !origin || origin === new URL(deps.urls.siteRoot).origin || origin === ownOrigin
  if (!allowed) {
    throw new AppError('forbidden', `This form only accepts posts from its own page on ${deps.urls.siteRoot}. Open the link you were sent and submit the form there.`)
  }
}

/**
 * The fields of a page's form post (urlencoded or JSON). Each named field, when present, must be
 * one piece of text Postgres can store; anything else is a validation_error, never a 500.
 */
export function formFields<K extends string>(ctx: Context, names: readonly K[]): Partial<Record<K, string>> {
  const body: unknown = (ctx.request as { body?: unknown }).body
  if (body === undefined || body === null) return {}
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw validationError(['body: send form fields (application/x-www-form-urlencoded) or a JSON object'], 'The form could not be read.')
  }
  const fields: Partial<Record<K, string>> = {}
  const problems: string[] = []
  for (const name of names) {
    const value = (body as Record<string, unknown>)[name]
    if (value === undefined || value === null) continue
    if (typeof value !== 'string') {
      problems.push(`${name}: must be text (one value), not ${Array.isArray(value) ? 'a list' : typeof value}`)
      continue
    }
    const problem = textProblem(value)
    if (problem) problems.push(`${name}: ${problem}`)
    else fields[name] = value
  }
  if (problems.length) throw validationError(problems, 'The form could not be read. Fill it in on the page and submit it again.')
  return fields
}

// Path prefixes whose next segment is a credential: the quote, invoice and unsubscribe page tokens, sandbox session ids and deposit tokens.
// Routing ignores case and repeated slashes do not change which segment is the id, so neither does this.
const CREDENTIAL_IN_PATH = /^(\/+(?:q|i|u|sandbox\/+checkout|sandbox\/+portal|sandbox\/+invoices|sandbox\/+wallet|sandbox\/+crypto)\/+)[^/]+/i

/** The path as it may be logged: the token or session id after /q/, /i/, /u/, /sandbox/checkout/, /sandbox/portal/, /sandbox/invoices/, /sandbox/wallet/, /sandbox/crypto/ is replaced. */
export function redactPath(path: string): string {
  return path.replace(CREDENTIAL_IN_PATH, '$1[redacted]')
}
