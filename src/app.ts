// Koa composition: request id and logs, the error envelope, body parsing, REST from the registry,
// generated documents, health checks and the sandbox payment pages.
import Koa from 'koa'
import Router from '@koa/router'
import { bodyParser } from '@koa/bodyparser'
import { documentFileRoutes, documentUploads } from './transports/document-files.js'
import { randomUUID } from 'node:crypto'
import { metricsRoute } from './transports/metrics-route.js'
import type { Deps } from './core/deps.js'
import { AppError, fromDatabaseOutage, fromDataException, validationError } from './core/errors.js'
import { KeyRateLimiter } from './core/auth.js'
import type { Registry } from './core/registry.js'
import { API_PREFIX, restRoutes } from './transports/rest.js'
import { byPrefix, routerMiddleware } from './transports/route-prefix.js'
import { buildOpenApi } from './transports/openapi.js'
import { outboundEvents } from './domains/webhooks/events.js'
import { buildDocs } from './transports/docs.js'
import { buildAgentCard, buildMcpServerCard } from './transports/wellknown.js'
import { sandboxPaymentPages } from './transports/pages/sandbox-payments.js'
import { walletPages } from './transports/pages/wallet-pages.js'
import { quotePages } from './transports/pages/quote-page.js'
import { dispatchOfferPages } from './transports/pages/dispatch-offer-page.js'
import { invoicePages } from './transports/pages/invoice-pages.js'
import { paymentWebhookRouter } from './transports/payment-webhooks.js'
import { twilioWebhookRouter } from './transports/twilio-webhooks.js'
import { integrationRouter } from './transports/integration-routes.js'
import { unsubscribePages } from './transports/pages/unsubscribe-page.js'
import { referralPages } from './transports/pages/referral-page.js'
import { mcpRouter } from './transports/mcp/http.js'
import { mcpSseRouter, type LocalSseSessions } from './transports/mcp/sse.js'
import { bodyError } from './transports/http-errors.js'
import { redactPath } from './transports/http-hygiene.js'
import { INPUT_LIMITS } from './core/input-guard.js'
import type { SseBus } from './transports/mcp/sse-bus.js'
import { logRequest } from './logger.js'

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

  // One front middleware (each layer of Koa's chain costs a promise per request): nosniff on every
  // response, the request id, the spec's error envelope and one structured log line per request
  // (page tokens and session ids in the path redacted). Internals (stack, SQL) go to the log only.
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff')
    const incoming = ctx.get('x-request-id')
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID()
    ctx.state.requestId = requestId
    ctx.set('X-Request-Id', requestId)
    const started = performance.now()
    try {
      await next()
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}. See ${deps.urls.apiBase}/docs.`)
      }
      // The routers' 405 and 501 (route-prefix.ts), with the Allow header they set.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined) {
        const allow = ctx.response.get('Allow')
        throw ctx.status === 405
          ? new AppError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; it answers ${allow}. See ${deps.urls.apiBase}/docs.`)
          : new AppError('not_implemented', `The ${ctx.method} method is not implemented here; use ${allow || 'GET, POST, PUT, PATCH or DELETE'}.`)
      }
    } catch (error) {
      const err = toAppError(error)
      if (err.code === 'internal_error') {
        deps.logger.error({ err: error, requestId }, 'unhandled error')
      } else if (!(error instanceof AppError)) {
        deps.logger.warn({ err: error, requestId, answered: err.code }, 'request error answered without a 500')
      }
      ctx.status = err.status
      ctx.set(err.headers)
      ctx.body = err.body()
    } finally {
      logRequest(deps.logger, {
        requestId, method: ctx.method, path: redactPath(ctx.path), status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10, companyId: ctx.state.companyId,
      })
    }
  })

  // MCP reads its own raw body: a parse error there is JSON-RPC -32700, not a REST validation_error.
  // So do the processor, Twilio and Xero webhooks: their signatures cover the bytes or the form as sent.
  // Each router sees only the requests under its prefix (route-prefix.ts).
  app.use(byPrefix([
    [`${API_PREFIX}/mcp`, mcpRouter(deps, registry, limiter)],
    [`${API_PREFIX}/mcp/sse`, mcpSseRouter(deps, registry, limiter, options.sse.sessions, options.sse.bus)],
    [`${API_PREFIX}/payments/webhooks`, paymentWebhookRouter(deps)],
    [`${API_PREFIX}/comms/webhooks/twilio`, twilioWebhookRouter(deps)],
    [`${API_PREFIX}/integrations/xero`, integrationRouter(deps)],
  ]))

  app.use(documentUploads(deps))
  app.use(bodyParser({
    enableTypes: ['json', 'form'],
    jsonLimit: INPUT_LIMITS.maxBodyBytes,
    formLimit: INPUT_LIMITS.maxBodyBytes,
    encoding: 'utf-8',
    onError: (error) => {
      throw bodyError(error)
    },
  }))

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
  system.get('/metrics', metricsRoute(deps))
  const openapi = buildOpenApi(registry, deps.urls.apiBase, outboundEvents())
  const docs = buildDocs(registry, deps.urls)
  const agentCard = buildAgentCard(registry, deps.urls)
  const mcpServerCard = buildMcpServerCard(deps.urls)
  system.get(`${API_PREFIX}/openapi.json`, (ctx) => (ctx.body = openapi))
  system.get(`${API_PREFIX}/docs`, (ctx) => (ctx.body = docs))
  system.get('/.well-known/agent-card.json', (ctx) => (ctx.body = agentCard))
  system.get('/.well-known/mcp-server.json', (ctx) => (ctx.body = mcpServerCard))

  // The REST routes first: they are most of the traffic, and their first-segment dispatch passes a
  // request none of them holds straight on, so the routers below see the same requests as before
  // (no path of theirs is a REST route's: /api/v1/openapi.json, /docs, /documents/:id/file).
  app.use(restRoutes(registry, deps, limiter))
  app.use(routerMiddleware(system))
  app.use(routerMiddleware(documentFileRoutes(deps, limiter)))
  for (const router of [sandboxPaymentPages(deps), quotePages(deps), invoicePages(deps), unsubscribePages(deps), referralPages(deps), walletPages(deps), dispatchOfferPages(deps)]) app.use(routerMiddleware(router))
  return app
}

function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const e = error as { status?: number; message?: string; name?: string }
  if (e?.status === 400 || e?.status === 415 || e?.status === 413) return bodyError(error)
  // A path with broken percent-encoding (/jobs/%E0%A4) fails in the router's decode.
  if (e?.name === 'URIError') return validationError(['path: is not valid percent-encoded UTF-8'], 'The request URL could not be read.')
  const known = fromDataException(error) ?? fromDatabaseOutage(error)
  if (known) return known
  return new AppError('internal_error', 'Something went wrong on our side. Retry, or contact support with the X-Request-Id header value.')
}
