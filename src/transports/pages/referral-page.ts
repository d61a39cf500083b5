// The page a company's referral link opens, /r/<code>: the code and how a business signs up with it
// (POST /api/v1/onboard with referral_code; sign-up is an API call, made by the business's agent).
// It only reads, so it needs no form protection; an unknown code is a 404.
import Router from '@koa/router'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { formatCents } from '../../core/money.js'
import { referralCodeExists } from '../../domains/ecosystem/referrals.js'
import { setPageHeaders } from '../http-hygiene.js'
import { escapeHtml as e, page } from './html.js'

export function referralPages(deps: Deps): Router {
  const router = new Router()
  router.get('/r/:code', async (ctx) => {
    const code = await referralCodeExists(deps, ctx.params.code ?? '')
    if (!code) throw new AppError('not_found', 'No company has this referral code. Check it with whoever shared it; a sign-up can go ahead without one.')
    const api = deps.urls.apiBase
    const body = JSON.stringify({ business_name: 'Your business', email: 'you@example.com', plan: 'starter', referral_code: code }, null, 2)
    setPageHeaders(ctx)
    ctx.body = page('You have been referred', `<h1>You have been referred</h1>
<div class="card"><dl><dt>Referral code</dt><dd id="code">${e(code)}</dd></dl>
<p>Sign up with this code and, once your first paid month is settled, your wallet and the referrer's each get ${e(formatCents(deps.config.REFERRAL_CREDIT_CENTS))} of credit.</p></div>
<p>Sign-up is one API call (your agent can make it): <code>POST ${e(api)}/onboard</code> with</p>
<pre>${e(body)}</pre>
<p>Everything else: <a href="${e(api)}/docs">${e(api)}/docs</a>.</p>`)
  })
  return router
}
