// GET /metrics: the Prometheus text format of this instance's registry (core/metrics.ts). Outside
// /api/v1 and without an API key, as Prometheus scrapes; with METRICS_TOKEN set it asks for that
// bearer token (Prometheus' `authorization` scrape setting), unset it is open for a private network.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Middleware } from 'koa'
import type { Deps } from '../core/deps.js'
import { AppError } from '../core/errors.js'
import { bearerToken } from '../core/auth.js'
import { metricsOf } from '../core/metrics.js'

const digest = (value: string) => createHash('sha256').update(value).digest()

export function metricsRoute(deps: Deps): Middleware {
  const expected = deps.config.METRICS_TOKEN ? digest(deps.config.METRICS_TOKEN) : null
  return async (ctx) => {
    if (expected) {
      const sent = bearerToken(ctx.get('authorization'))
      // Compared as digests: equal lengths for timingSafeEqual, nothing learnt from the timing.
      if (!sent || !timingSafeEqual(digest(sent), expected)) {
        throw new AppError('unauthorized', 'GET /metrics needs the header "Authorization: Bearer <METRICS_TOKEN>" (the token set in the service\'s METRICS_TOKEN).', {}, { 'WWW-Authenticate': 'Bearer realm="metrics"' })
      }
    }
    const registry = metricsOf(deps).registry
    ctx.set('Content-Type', registry.contentType)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await registry.metrics()
  }
}
