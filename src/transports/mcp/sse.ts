// Legacy MCP SSE transport. GET /api/v1/mcp/sse opens a stream whose first event, `endpoint`,
// carries a POST URL bound to this stream; each POST there is answered 202 and its JSON-RPC
// response goes out on the stream as a `message` event. Comments keep idle proxies from closing it.
// A stream belongs to the key that opened it (Bearer, with the plan's mcpAccess): a POST into it
// must carry that same key, or it is answered exactly like a POST to a session that does not exist.
// With several API instances a POST may land on one that does not hold the stream: it runs the
// request and routes the response through Postgres LISTEN/NOTIFY (sse-bus.ts).
import Router from '@koa/router'
import type { Context } from 'koa'
import { PassThrough } from 'node:stream'
import { randomBytes } from 'node:crypto'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import type { Registry } from '../../core/registry.js'
import { AppError } from '../../core/errors.js'
import { authenticateHttp, type KeyRateLimiter } from '../../core/auth.js'
import type { CatalogueView } from './catalogue.js'
import { requireMcpAccess } from './handler.js'
import { checkProtocolVersionHeader, mcpHeaders } from './headers.js'
import { callContext, claimedRoute, readBodyOrRefuse, viewFrom } from './http.js'
import { checkOrigin } from './origin.js'
import { RPC, rpcErrorBody, rpcErrorFromApp } from './protocol.js'
import { runBody } from './run-body.js'
import type { SseBus, SseOwner } from './sse-bus.js'

interface Session {
  stream: PassThrough
  view: CatalogueView
  owner: SseOwner
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

/** Session ids are 16 random bytes in base64url (22 characters); anything else is not one of ours. */
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/
const newSessionId = () => randomBytes(16).toString('base64url')

const UNKNOWN_SESSION_MESSAGE = 'Unknown or closed SSE session: open GET /api/v1/mcp/sse again with your key, and post to the endpoint it sends, with that same key.'

/** Unknown, closed, and someone else's session all get this same answer. */
function answerUnknownSession(ctx: Context): void {
  ctx.status = 404
  ctx.body = rpcErrorBody(RPC.NOT_FOUND, UNKNOWN_SESSION_MESSAGE, { error: 'not_found', message: UNKNOWN_SESSION_MESSAGE })
}

const sameOwner = (owner: SseOwner | null | undefined, caller: Principal) =>
  !!owner && owner.keyId === caller.keyId && (owner.companyId === undefined || owner.companyId === caller.companyId)

export function mcpSseRouter(deps: Deps, registry: Registry, limiter: KeyRateLimiter, sessions: LocalSseSessions, bus: SseBus): Router {
  const router = new Router({ prefix: '/api/v1/mcp/sse' })
  const keepAliveMs = deps.config.MCP_SSE_KEEPALIVE_MS

  router.get('/', async (ctx) => {
    if (!checkOrigin(ctx, deps) || !checkProtocolVersionHeader(ctx)) return
    // Opening is not an API call (each authenticated request through the stream counts, as on
    // POST /mcp); an AppError here is answered by the app's {error, message} envelope.
    const principal = requireMcpAccess(await authenticateHttp(ctx, deps, limiter, { count: false }))
    const owner = { companyId: principal.companyId, keyId: principal.keyId }
    const id = newSessionId()
    await bus.register(id, owner)
    const stream = new PassThrough()
    sessions.add(id, { stream, view: viewFrom(ctx), owner })
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
    if (!checkOrigin(ctx, deps) || !checkProtocolVersionHeader(ctx)) return
    const id = ctx.query.session_id
    if (typeof id !== 'string' || !SESSION_ID.test(id)) {
      const message = 'session_id must be the value from the stream\'s endpoint event: post to that URL exactly as sent.'
      ctx.status = 400
      ctx.body = rpcErrorBody(RPC.INVALID_REQUEST, message, { error: 'validation_error', message, messages: ['session_id: is not a session id'] })
      return
    }
    // The caller is identified before the session is looked up, so every answer that depends on
    // the key (a refused or rate-limited one) is the same whether or not the session exists.
    let caller: Principal
    try {
      caller = await authenticateHttp(ctx, deps, limiter, { count: false })
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      if (error.code === 'unauthorized') return answerUnknownSession(ctx)
      const rpc = rpcErrorFromApp(error)
      ctx.status = rpc.httpStatus
      ctx.set(rpc.headers)
      ctx.body = rpcErrorBody(rpc.code, rpc.message, rpc.data)
      return
    }
    const local = sessions.get(id)
    const owner = local ? local.owner : await bus.ownerOf(id)
    if (!sameOwner(owner, caller)) return answerUnknownSession(ctx)

    const raw = await readBodyOrRefuse(ctx)
    if (raw === null) return
    // A session held elsewhere keeps the listing options it was opened with (carried in the URL).
    const call = callContext(ctx, deps, registry, limiter, local?.view ?? viewFrom(ctx))
    const out = await runBody(call, raw, claimedRoute(ctx))
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
