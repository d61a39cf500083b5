// Twilio's calls to us: POST {base_url}/comms/webhooks/twilio/status/<message id> (the
// StatusCallback each SMS is sent with) and POST {base_url}/comms/webhooks/twilio/inbound (set as
// the number's "A message comes in" webhook). Public, so each request must carry Twilio's
// X-Twilio-Signature over the URL and its form parameters: anything else is 403 and changes nothing.
// Mounted before the body parser: the form is read here, within the same body limit.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../core/deps.js'
import { AppError } from '../core/errors.js'
import { INPUT_LIMITS } from '../core/input-guard.js'
import { verifyTwilioSignature } from '../providers/sms/twilio-signature.js'
import { applyTwilioStatus, handleTwilioInbound } from '../domains/comms/twilio-status.js'
import { API_PREFIX } from './rest.js'

const tooLarge = () => new AppError('payload_too_large', `Webhook bodies are at most ${INPUT_LIMITS.maxBodyBytes} bytes.`)

async function formBody(ctx: Context): Promise<URLSearchParams> {
  if (Number(ctx.get('content-length') || 0) > INPUT_LIMITS.maxBodyBytes) throw tooLarge()
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length
    if (size > INPUT_LIMITS.maxBodyBytes) throw tooLarge()
    chunks.push(chunk as Buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

/** The form, once its signature is Twilio's for the public URL it was sent to. */
async function verifiedForm(ctx: Context, deps: Deps): Promise<URLSearchParams> {
  const token = deps.config.TWILIO_AUTH_TOKEN
  if (deps.sms.name !== 'twilio' || !token) throw new AppError('not_found', 'This deployment does not send SMS through Twilio (SMS_PROVIDER is not twilio).')
  const params = await formBody(ctx)
  // Twilio signs the URL it was given, which we built from the public site root.
  const url = `${deps.urls.siteRoot}${ctx.originalUrl}`
  if (!verifyTwilioSignature(token, url, params, ctx.get('x-twilio-signature') || undefined)) {
    deps.logger.warn({ path: ctx.path }, 'Twilio webhook refused: bad or missing signature')
    throw new AppError('forbidden', 'The X-Twilio-Signature did not verify for this URL and body; nothing was changed.')
  }
  return params
}

export function twilioWebhookRouter(deps: Deps): Router {
  const router = new Router({ prefix: `${API_PREFIX}/comms/webhooks/twilio` })
  router.post('/status/:id', async (ctx) => {
    const params = await verifiedForm(ctx, deps)
    const outcome = await applyTwilioStatus(deps, ctx.params.id!, params)
    deps.logger.info({ communicationId: ctx.params.id, status: params.get('MessageStatus'), outcome }, 'Twilio status callback')
    ctx.body = { received: true, outcome }
  })
  router.post('/inbound', async (ctx) => {
    const params = await verifiedForm(ctx, deps)
    const result = await handleTwilioInbound(deps, params)
    deps.logger.info({ ...result }, 'Twilio inbound message')
    // Empty TwiML: no automatic reply from us (Twilio answers STOP / START itself).
    ctx.type = 'text/xml'
    ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>'
  })
  return router
}
