// REST routes generated from the registry. A route only translates HTTP: it gathers the input
// (query, path, body), the Idempotency-Key header and the binding's plan feature, calls the one
// pipeline (core/execute.ts) and writes the status and body. No business logic lives here.
import Router from '@koa/router'
import type { Context, Middleware } from 'koa'
import type { Deps } from '../core/deps.js'
import type { AnyOperation } from '../core/operation.js'
import type { Registry } from '../core/registry.js'
import { authenticateHttp, type KeyRateLimiter } from '../core/auth.js'
import { validationError } from '../core/errors.js'
import { execute } from '../core/execute.js'
import { errorInTransport, nextStepsInTransport } from '../core/next-step.js'
import { bySegment, firstSegment } from './route-prefix.js'

export const API_PREFIX = '/api/v1'


const readsQuery = (op: AnyOperation) => op.rest!.method === 'GET' || op.rest!.method === 'DELETE'

function rawInput(ctx: Context, op: AnyOperation): Record<string, unknown> {
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {}
  if (readsQuery(op)) return { ...ctx.query, ...params }
  const body = (ctx.request as { body?: unknown }).body
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw validationError(['body: must be a JSON object'])
  }
  return { ...(body as Record<string, unknown> | undefined), ...params }
}

/**
 * The REST routes, one router per first path segment (leads, jobs, invoices...) so a request is
 * matched against its own resource's routes only.
 */
export function restRoutes(registry: Registry, deps: Deps, limiter: KeyRateLimiter): Middleware {
  const routers = new Map<string, Router>()
  for (const op of registry.restOperations()) {
    const binding = op.rest!
    const segment = firstSegment(binding.path)
    let router = routers.get(segment)
    if (!router) routers.set(segment, (router = new Router({ prefix: API_PREFIX })))
    const method = binding.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'
    router[method](binding.path, async (ctx) => {
      const result = await executeRoute(ctx, op, binding)
      if (result.replayed) ctx.set('Idempotent-Replayed', 'true')
      // A dry run made nothing: 200, not the binding's 201 Created.
      ctx.status = result.status === 201 && (result.output as { dry_run?: unknown } | null)?.dry_run === true ? 200 : result.status
      ctx.body = nextStepsInTransport(result.output, 'rest', registry)
    })
  }
  return bySegment(API_PREFIX, routers)

  // Errors name their next step as the REST caller calls it (core/next-step.ts).
  function executeRoute(ctx: Context, op: AnyOperation, binding: NonNullable<AnyOperation['rest']>) {
    return execute(op, {
      deps,
      transport: 'rest',
      requestId: ctx.state.requestId,
      clientIp: ctx.ip,
      authenticate: () => authenticateHttp(ctx, deps, limiter, { count: binding.countsTowardQuota ?? true }),
      bindingFeature: binding.feature,
      convert: readsQuery(op),
      // ctx.get answers '' for a header not sent; the raw header tells an empty key from none.
      idempotency: { key: ctx.headers['idempotency-key'], field: 'Idempotency-Key' },
      successStatus: binding.status ?? 200,
    }, rawInput(ctx, op)).catch((error: unknown) => {
      throw errorInTransport(error, 'rest', registry)
    })
  }
}
