// Legacy MCP SSE transport. GET /api/v1/mcp/sse opens a stream whose first event, `endpoint`,
// carries a POST URL bound to this stream; each POST there is answered 202 and its JSON-RPC
// response goes out on the stream as a `message` event. Comments keep idle proxies from closing it.
// Sessions live in this process; with several API instances, route POSTs to the instance holding
// the stream (sticky sessions), see docs/decisions.md.
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

interface Session {
  stream: PassThrough
  view: CatalogueView
}

export function mcpSseRouter(deps: Deps, registry: Registry, limiter: KeyRateLimiter, keepAliveMs: number): Router {
  const router = new Router({ prefix: '/api/v1/mcp/sse' })
  const sessions = new Map<string, Session>()

  router.get('/', (ctx) => {
    if (!checkOrigin(ctx, deps)) return
    const id = randomBytes(16).toString('base64url')
    const stream = new PassThrough()
    const view = viewFrom(ctx)
    sessions.set(id, { stream, view })
    ctx.req.socket.setTimeout(0)
    ctx.req.socket.setNoDelay(true)
    ctx.req.socket.setKeepAlive(true)
    ctx.status = 200
    ctx.set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' })
    ctx.body = stream

    const query = new URLSearchParams(ctx.querystring)
    query.set('session_id', id)
    stream.write(`event: endpoint\ndata: /api/v1/mcp/sse/messages?${query.toString()}\n\n`)
    const timer = setInterval(() => stream.write(': keep-alive\n\n'), keepAliveMs)
    const close = () => {
      clearInterval(timer)
      sessions.delete(id)
      stream.end()
    }
    ctx.req.on('close', close)
    stream.on('error', close)
  })

  router.post('/messages', async (ctx) => {
    if (!checkOrigin(ctx, deps)) return
    const session = sessions.get(String(ctx.query.session_id ?? ''))
    if (!session) {
      ctx.status = 404
      ctx.body = { jsonrpc: '2.0', id: null, error: { code: RPC.INVALID_REQUEST, message: 'Unknown or closed SSE session: open GET /api/v1/mcp/sse again.' } }
      return
    }
    const raw = await readRawBody(ctx)
    const call = callContext(ctx, deps, registry, limiter, session.view)
    const out = await runBody(call, raw, { method: ctx.get('mcp-method') || undefined, name: ctx.get('mcp-name') || undefined })
    if (out.body !== undefined) session.stream.write(`event: message\ndata: ${JSON.stringify(out.body)}\n\n`)
    ctx.set({ ...mcpHeaders(out.handled), ...out.extraHeaders })
    ctx.status = 202
    ctx.body = 'Accepted'
  })

  return router
}
