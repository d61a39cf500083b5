// GET /metrics for a process without the API (the worker-only process, main-worker.ts): messages
// and webhook deliveries are counted where the activities run, so the worker is scraped too.
import Koa from 'koa'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Deps } from '../core/deps.js'
import { AppError } from '../core/errors.js'
import { metricsRoute } from './metrics-route.js'

export async function startMetricsServer(deps: Deps, port: number, host: string): Promise<{ server: Server; port: number; stop(): Promise<void> }> {
  const route = metricsRoute(deps)
  const app = new Koa()
  app.silent = true
  app.use(async (ctx, next) => {
    try {
      if (ctx.method !== 'GET' || ctx.path !== '/metrics') throw new AppError('not_found', 'This port serves GET /metrics only.')
      await route(ctx, next)
    } catch (error) {
      const err = error instanceof AppError ? error : new AppError('internal_error', 'The metrics could not be read; see the log.')
      if (!(error instanceof AppError)) deps.logger.error({ err: error }, 'metrics server error')
      ctx.status = err.status
      ctx.set(err.headers)
      ctx.body = err.body()
    }
  })
  const server = app.listen(port, host)
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject))
  return {
    server,
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
