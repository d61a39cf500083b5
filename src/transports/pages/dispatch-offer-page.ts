// A subcontractor's job offer, /d/<token>: the job and two buttons. GET only shows (link previews
// open links and must not answer); POST /d/<token>/accept or /decline records the answer and tells the run.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import { answerOffer, offerView, type OfferView } from '../../domains/subcontractors/dispatch.js'
import { refuseCrossSite, setPageHeaders } from '../http-hygiene.js'
import { CLIENT_PAGE_STYLE, clientPageStart, escapeHtml as e } from './html.js'

const STYLE = `${CLIENT_PAGE_STYLE}
  button { width: 100%; font-size: 1.1rem; padding: .9rem; margin-top: .75rem; border: 0; border-radius: .5rem; cursor: pointer; color: #fff; }
  #accept { background: #166534; } #decline { background: #7f1d1d; }
  .status { padding: .75rem 1rem; border-radius: .5rem; font-weight: 600; background: #e3f4e8; color: #14532d; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
`

const ANSWERED: Record<string, string> = {
  accepted: 'You accepted this job. The business will be in touch with the details.',
  declined: 'You declined this job. Thanks for letting us know.',
  timed_out: 'This offer has expired.',
  withdrawn: 'This offer was withdrawn.',
  skipped: 'This offer is no longer open.',
}

function render(token: string, v: OfferView): string {
  const details = `<p><strong>${e(v.jobTitle)}</strong></p>${v.address ? `<p>${e(v.address)}</p>` : ''}${v.scheduledDate ? `<p>Date: ${e(v.scheduledDate)}</p>` : ''}`
  const body = v.status === 'offered'
    ? `<div class="card">${details}<p>Answer by ${e(v.expiresAt)}.</p>
<form method="post" action="/d/${e(token)}/accept"><button type="submit" id="accept">Accept the job</button></form>
<form method="post" action="/d/${e(token)}/decline"><button type="submit" id="decline">Decline</button></form></div>`
    : `<div class="card">${details}</div><p class="status" role="status" id="answered">${e(ANSWERED[v.status] ?? 'This offer is closed.')}</p>`
  return `${clientPageStart(`Job offer from ${v.businessName}`, STYLE)}
<header><p>${e(v.businessName)}</p><h1>Job offer</h1></header>
${body}
</main>
</body>
</html>`
}

function show(ctx: Context, token: string, view: OfferView) {
  setPageHeaders(ctx)
  ctx.body = render(token, view)
}

export function dispatchOfferPages(deps: Deps): Router {
  const router = new Router()
  router.get('/d/:token', async (ctx) => show(ctx, ctx.params.token!, await offerView(deps, ctx.params.token!)))
  for (const answer of ['accept', 'decline'] as const) {
    router.post(`/d/:token/${answer}`, async (ctx) => {
      refuseCrossSite(ctx, deps)
      await answerOffer(deps, ctx.params.token!, answer)
      ctx.status = 303
      ctx.redirect(`/d/${ctx.params.token!}`)
    })
  }
  return router
}
