// Legacy MCP SSE transport. GET /api/v1/mcp/sse opens a stream whose first event, `endpoint`,
// carries a POST URL bound to this stream; each POST there is answered 202 and its JSON-RPC
// response goes out on the stream as a `message` event. Comments keep idle proxies from closing it.
// With several API instances a POST may land on one that does not hold the stream: it runs the
// request and routes the response through Postgres LISTEN/NOTIFY (sse-bus.ts).
import Router from '@koa/router'
import { PassThrough } from 'node:stream'
import { randomBytes } from 'node:crypto'
import type { Deps } from '../../core/deps.js'
import type { Registry } from '../../core/registry.js'
import type { KeyRateLimiter } from '../../core/auth.js'
import type { CatalogueView } from './catalogue.js'
import { callContext, mcpHeaders, readRawBody, runBody, viewFrom } from './http.js'
import { checkOrigin } from './origin.js'
import { RPC } from './protocol.js'
import type { SseBus } from './sse-bus.js'

interface Session {
  stream: PassThrough
  view: CatalogueView
}

/** The SSE streams this process holds. */
export class LocalSseSessions {
  private readonly sessions = new Map<string, Session>()
  get(id: string) {
    return this.sessions.get(id)
  }
  add(id: string, session: Session) {
    this.sessions.set(id, session)
  }
  delete(id: string) {
    this.sessions.delete(id)
  }
  /** Sends a JSON-RPC response as a `message` event; false when the stream is not here. */
  write(id: string, message: string): boolean {
    const session = this.sessions.get(id)
    if (!session) return false
    session.stream.write(`event: message\ndata: ${message}\n\n`)
    return true
  }
}

export function mcpSseRouter(deps: Deps, registry: Registry, limiter: KeyRateLimiter, sessions: LocalSseSessions, bus: SseBus): Router {
  const router = new Router({ prefix: '/api/v1/mcp/sse' })
  const keepAliveMs = deps.config.MCP_SSE_KEEPALIVE_MS

  router.get('/', async (ctx) => {
    if (!checkOrigin(ctx, deps)) return
    const id = randomBytes(16).toString('base64url')
    await bus.register(id)
    const stream = new PassThrough()
    sessions.add(id, { stream, view: viewFrom(ctx) })
    ctx.req.socket.setTimeout(0)
    ctx.req.socket.setNoDelay(true)
    ctx.req.socket.setKeepAlive(true)
    ctx.status = 200
    ctx.set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' })
    ctx.body = stream

    const query = new URLSearchParams(ctx.querystring)
    query.set('session_id', id)
    stream.write(`event: endpoint\ndata: /api/v1/mcp/sse/messages?${query.toString()}\n\n`)
    const timer = setInterval(() => {
      stream.write(': keep-alive\n\n')
      void bus.touch([id])
    }, keepAliveMs)
    const close = () => {
      clearInterval(timer)
      sessions.delete(id)
      void bus.unregister(id)
      stream.end()
    }
    ctx.req.on('close', close)
    stream.on('error', close)
  })

  router.post('/messages', async (ctx) => {
    if (!checkOrigin(ctx, deps)) return
    const id = String(ctx.query.session_id ?? '')
    const local = sessions.get(id)
    if (!local && !(id && (await bus.isOpenElsewhere(id)))) {
      ctx.status = 404
      ctx.body = { jsonrpc: '2.0', id: null, error: { code: RPC.INVALID_REQUEST, message: 'Unknown or closed SSE session: open GET /api/v1/mcp/sse again.' } }
      return
    }
    const raw = await readRawBody(ctx)
    // A session held elsewhere keeps the listing options it was opened with (carried in the URL).
    const call = callContext(ctx, deps, registry, limiter, local?.view ?? viewFrom(ctx))
    const out = await runBody(call, raw, { method: ctx.get('mcp-method') || undefined, name: ctx.get('mcp-name') || undefined })
    if (out.body !== undefined) {
      const message = JSON.stringify(out.body)
      if (!sessions.write(id, message)) await bus.publish(id, message)
    }
    ctx.set({ ...mcpHeaders(out.handled), ...out.extraHeaders })
    ctx.status = 202
    ctx.body = 'Accepted'
  })

  return router
}
