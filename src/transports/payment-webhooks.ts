// POST {base_url}/payments/webhooks/<provider>: the payment processor's events. Mounted before the
// body parser, because the signature covers the raw bytes exactly as sent.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../core/deps.js'
import { AppError } from '../core/errors.js'
import { INPUT_LIMITS } from '../core/input-guard.js'
import { handleProcessorWebhook, WebhookSignatureError } from '../domains/payments/webhook.js'
import { API_PREFIX } from './rest.js'

export async function rawBody(ctx: Context): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0)
  if (declared > INPUT_LIMITS.maxBodyBytes) throw new AppError('payload_too_large', `Webhook bodies are at most ${INPUT_LIMITS.maxBodyBytes} bytes.`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length
    if (size > INPUT_LIMITS.maxBodyBytes) throw new AppError('payload_too_large', `Webhook bodies are at most ${INPUT_LIMITS.maxBodyBytes} bytes.`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

export function paymentWebhookRouter(deps: Deps): Router {
  const router = new Router({ prefix: `${API_PREFIX}/payments/webhooks` })
  router.post('/:provider', async (ctx) => {
    if (ctx.params.provider !== deps.payments.name) {
      throw new AppError('not_found', `This deployment takes payment webhooks from '${deps.payments.name}' only.`)
    }
    const body = await rawBody(ctx)
    try {
      const outcome = await handleProcessorWebhook(deps, body, ctx.get('stripe-signature') || undefined)
      ctx.body = { received: true, ...outcome }
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        deps.logger.warn({ provider: deps.payments.name, reason: error.message }, 'payment webhook refused: bad signature')
        throw new AppError('validation_error', 'The webhook signature did not verify; the event was not processed.', { messages: [`signature: ${error.message}`] })
      }
      throw error
    }
  })
  return router
}
