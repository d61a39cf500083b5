// DNS-rebinding protection (MCP transport spec): the Host must be ours, and an Origin, when a
// browser sends one, must be too. Ours = the public URL's host, loopback names, and ALLOWED_HOSTS.
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import { RPC } from './protocol.js'

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

function hostname(hostHeader: string): string {
  return hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0]!
}

export function isAllowedHost(host: string, deps: Deps): boolean {
  const name = hostname(host.toLowerCase())
  if (LOOPBACK.has(name)) return true
  const extra = deps.config.ALLOWED_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean)
  return name === new URL(deps.urls.siteRoot).hostname.toLowerCase() || extra.includes(name) || extra.includes(host.toLowerCase())
}

/** Answers 403 and returns false when the request fails the check. */
export function checkOrigin(ctx: Context, deps: Deps): boolean {
  const host = ctx.get('host')
  const origin = ctx.get('origin')
  let ok = !!host && isAllowedHost(host, deps)
  if (ok && origin && origin !== 'null') {
    try {
      ok = isAllowedHost(new URL(origin).host, deps)
    } catch {
      ok = false
    }
  }
  if (!ok) {
    ctx.status = 403
    ctx.body = { jsonrpc: '2.0', id: null, error: { code: RPC.FORBIDDEN, message: 'Forbidden: Host or Origin is not allowed (DNS-rebinding protection). Set ALLOWED_HOSTS to add one.' } }
  }
  return ok
}
