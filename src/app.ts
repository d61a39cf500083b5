// Koa composition: request id and logs, the error envelope, body parsing, REST from the registry,
// generated documents, health checks and the sandbox payment pages.
import Koa from 'koa'
import Router from '@koa/router'
import { bodyParser } from '@koa/bodyparser'
import { randomUUID } from 'node:crypto'
import type { Deps } from './core/deps.js'
import { AppError } from './core/errors.js'
import { KeyRateLimiter } from './core/auth.js'
import type { Registry } from './core/registry.js'
import { API_PREFIX, restRouter } from './transports/rest.js'
import { buildOpenApi } from './transports/openapi.js'
import { buildDocs } from './transports/docs.js'
import { buildAgentCard, buildMcpServerCard } from './transports/wellknown.js'
import { sandboxPaymentPages } from './transports/pages/sandbox-payments.js'
import { quotePages } from './transports/pages/quote-page.js'
import { mcpRouter } from './transports/mcp/http.js'
import { mcpSseRouter, type LocalSseSessions } from './transports/mcp/sse.js'
import type { SseBus } from './transports/mcp/sse-bus.js'

export interface AppOptions {
  /** Health of parts outside the database (the Temporal connection). */
  readiness?: () => Promise<Record<string, boolean>>
  /** Legacy SSE streams held here, and the cross-instance route for their responses. */
  sse: { sessions: LocalSseSessions; bus: SseBus }
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/

export function createApp(deps: Deps, registry: Registry, options: AppOptions): Koa {
  const app = new Koa({ proxy: deps.config.TRUST_PROXY })
  const limiter = new KeyRateLimiter(deps.config.RATE_LIMIT_PER_MINUTE)
  // Koa's own stream errors: a client hanging up on an SSE stream is normal, anything else is logged.
  app.silent = true
  app.on('error', (error: { code?: string }) => {
    if (error?.code === 'ERR_STREAM_PREMATURE_CLOSE' || error?.code === 'ECONNRESET' || error?.code === 'EPIPE') return
    deps.logger.error({ err: error }, 'server error')
  })

  // Request id + one structured log line per request.
  app.use(async (ctx, next) => {
    const incoming = ctx.get('x-request-id')
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID()
    ctx.state.requestId = requestId
    ctx.set('X-Request-Id', requestId)
    const started = performance.now()
    try {
      await next()
    } finally {
      deps.logger.info(
        { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10, companyId: ctx.state.companyId },
        'request',
      )
    }
  })

  // The spec's error envelope. Internals (stack, SQL) go to the log, never to the client.
  app.use(async (ctx, next) => {
    try {
      await next()
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}. See ${deps.urls.apiBase}/docs.`)
      }
    } catch (error) {
      const err = toAppError(error)
      if (err.code === 'internal_error') {
        deps.logger.error({ err: error, requestId: ctx.state.requestId }, 'unhandled error')
      }
      ctx.status = err.status
      ctx.set(err.headers)
      ctx.body = err.body()
    }
  })

  // MCP reads its own raw body: a parse error there is JSON-RPC -32700, not a REST validation_error.
  for (const router of [mcpRouter(deps, registry, limiter), mcpSseRouter(deps, registry, limiter, options.sse.sessions, options.sse.bus)]) {
    app.use(router.routes())
    app.use(router.allowedMethods({ throw: true }))
  }

  app.use(bodyParser({ enableTypes: ['json', 'form'], jsonLimit: '1mb', encoding: 'utf-8' }))

  const system = new Router()
  system.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' }
  })
  system.get('/readyz', async (ctx) => {
    const checks: Record<string, boolean> = { database: false }
    try {
      await deps.db.app`select 1`
      checks.database = true
    } catch {
      /* reported below */
    }
    Object.assign(checks, options.readiness ? await options.readiness().catch(() => ({ temporal: false })) : {})
    const ready = Object.values(checks).every(Boolean)
    ctx.status = ready ? 200 : 503
    ctx.body = { status: ready ? 'ready' : 'not_ready', checks }
  })
  const openapi = buildOpenApi(registry, deps.urls.apiBase)
  const docs = buildDocs(registry, deps.urls)
  const agentCard = buildAgentCard(registry, deps.urls)
  const mcpServerCard = buildMcpServerCard(registry, deps.urls)
  system.get(`${API_PREFIX}/openapi.json`, (ctx) => (ctx.body = openapi))
  system.get(`${API_PREFIX}/docs`, (ctx) => (ctx.body = docs))
  system.get('/.well-known/agent-card.json', (ctx) => (ctx.body = agentCard))
  system.get('/.well-known/mcp-server.json', (ctx) => (ctx.body = mcpServerCard))

  const rest = restRouter(registry, deps, limiter)
  for (const router of [system, rest, sandboxPaymentPages(deps), quotePages(deps)]) {
    app.use(router.routes())
    app.use(router.allowedMethods({ throw: true }))
  }
  return app
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const e = error as { status?: number; type?: string; message?: string; expose?: boolean }
  if (e?.status === 400 || e?.status === 415 || e?.status === 413) {
    // Body parser: invalid JSON, wrong content type, too large.
    return new AppError('validation_error', 'The request body could not be read.', {
      messages: [e.type === 'entity.parse.failed' ? 'body: is not valid JSON' : `body: ${e.expose ? e.message : 'unreadable'}`],
    })
  }
  if (e?.status === 405) return new AppError('method_not_allowed', `${e.message ?? 'Method not allowed'}.`)
  if (e?.status === 501) return new AppError('not_implemented', 'Method not implemented.')
  return new AppError('internal_error', 'Something went wrong on our side. Retry, or contact support with the X-Request-Id header value.')
}
