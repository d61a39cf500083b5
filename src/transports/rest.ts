// REST routes generated from the registry. Each route: authenticate (counting the call), authorise,
// precheck, validate, run. No business logic lives here.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../core/deps.js'
import type { AnyOperation, OperationContext } from '../core/operation.js'
import type { Registry } from '../core/registry.js'
import { authenticateHttp, authorize, type KeyRateLimiter } from '../core/auth.js'
import { validationError } from '../core/errors.js'
import { parseInput } from '../core/validation.js'

export const API_PREFIX = '/api/v1'

/** Koa's /keys/:id becomes OpenAPI's /keys/{id}. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}')
}

function rawInput(ctx: Context, op: AnyOperation): Record<string, unknown> {
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {}
  if (op.rest!.method === 'GET' || op.rest!.method === 'DELETE') return { ...ctx.query, ...params }
  const body = (ctx.request as { body?: unknown }).body
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw validationError(['body: must be a JSON object'])
  }
  return { ...(body as Record<string, unknown> | undefined), ...params }
}

export async function runOperation(op: AnyOperation, opCtx: OperationContext, raw: Record<string, unknown>, convert: boolean) {
  if (op.precheck) await op.precheck(opCtx, raw)
  const input = parseInput(op.input, raw, { convert })
  return op.run(opCtx, input as never)
}

export function restRouter(registry: Registry, deps: Deps, limiter: KeyRateLimiter): Router {
  const router = new Router({ prefix: API_PREFIX })
  for (const op of registry.restOperations()) {
    const binding = op.rest!
    const method = binding.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'
    router[method](binding.path, async (ctx) => {
      const opCtx: OperationContext = {
        deps,
        principal: null,
        requestId: ctx.state.requestId,
        clientIp: ctx.ip,
        transport: 'rest',
      }
      if (op.access !== 'public') {
        opCtx.principal = await authenticateHttp(ctx, deps, limiter, { count: binding.countsTowardQuota ?? true })
        authorize(op.access, opCtx.principal, binding.feature)
      }
      const raw = rawInput(ctx, op)
      ctx.body = await runOperation(op, opCtx, raw, binding.method === 'GET' || binding.method === 'DELETE')
      ctx.status = binding.status ?? 200
    })
  }
  return router
}
