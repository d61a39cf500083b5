// The accounting providers' own requests, under {base_url}/integrations/xero: the OAuth callback the
// owner's browser is sent back to (no API key: the signed state names the company), and Xero's
// webhooks (mounted before the body parser: the signature covers the raw bytes exactly as sent).
import Router from '@koa/router'
import type { Deps } from '../core/deps.js'
import { AppError } from '../core/errors.js'
import { completeConnection } from '../domains/integrations/connect.js'
import { recordXeroEvents, xeroSignatureValid } from '../domains/integrations/xero-webhooks.js'
import { rawBody } from './payment-webhooks.js'
import { setPageHeaders } from './http-hygiene.js'
import { escapeHtml as e, page } from './pages/html.js'
import { API_PREFIX } from './rest.js'

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)

export function integrationRouter(deps: Deps): Router {
  const router = new Router({ prefix: `${API_PREFIX}/integrations/xero` })

  router.get('/callback', async (ctx) => {
    const outcome = await completeConnection(deps, 'xero', { code: one(ctx.query.code), state: one(ctx.query.state), error: one(ctx.query.error) })
    setPageHeaders(ctx)
    if (outcome.ok) {
      const names = outcome.connections.map((c) => c.tenant_name ?? c.tenant_id).join(', ')
      ctx.body = page('Xero connected', `<h1>Xero connected</h1><p id="connected">Connected to ${e(names)}. You can close this window.</p>`)
    } else {
      ctx.status = outcome.status
      ctx.body = page('Xero not connected', `<h1>Xero not connected</h1><p id="problem">${e(outcome.message)}</p>`)
    }
  })

  // Xero's contract: 200 with an empty body to a good signature, 401 with an empty body to a bad one.
  router.post('/webhooks', async (ctx) => {
    const key = deps.config.XERO_WEBHOOK_KEY
    if (!key) throw new AppError('not_found', 'This deployment takes no Xero webhooks (XERO_WEBHOOK_KEY is not set).')
    const body = await rawBody(ctx)
    if (!xeroSignatureValid(body, ctx.get('x-xero-signature') || undefined, key)) {
      deps.logger.warn({ bytes: body.length }, 'xero webhook refused: bad signature')
      ctx.status = 401
      ctx.body = ''
      return
    }
    await recordXeroEvents(deps, body)
    ctx.status = 200
    ctx.body = ''
  })
  return router
}
