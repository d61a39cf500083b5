// A subcontractor's job offer, /d/<token>: the job and two buttons. GET only shows (link previews
// open links and must not answer); POST /d/<token>/accept or /decline records the answer and tells the run.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { longLocalDate, shortLocalTime } from '../../core/zoned-time.js'
import { answerOffer, offerView, type OfferView } from '../../domains/subcontractors/dispatch.js'
import { refuseCrossSite, setPageHeaders } from '../http-hygiene.js'
import { CLIENT_ANSWER_STYLE, CLIENT_PAGE_STYLE, clientPageStart, escapeHtml as e } from './html.js'

const STYLE = `${CLIENT_PAGE_STYLE}${CLIENT_ANSWER_STYLE}
  dl { margin: .75rem 0 0; } dt { color: #555; font-size: .9rem; } dd { margin: 0 0 .5rem; font-size: 1.05rem; }
  .status.accepted { background: #e3f4e8; color: #14532d; } .status.closed { background: #fdecec; color: #7f1d1d; }
`

const ANSWERED: Record<string, string> = {
  accepted: 'You accepted this job. The business will be in touch with the details.',
  declined: 'You declined this job. Thanks for letting us know.',
  timed_out: 'This offer has expired.',
  withdrawn: 'This offer was withdrawn.',
  skipped: 'This offer is no longer open.',
}

function render(token: string, v: OfferView): string {
  const at = (iso: string) => `${shortLocalTime(iso, v.timeZone)}, ${longLocalDate(iso, v.timeZone)}` // the business's clock
  const facts = [
    v.address && ['Where', e(v.address)],
    v.scheduledDate && ['When', e(longLocalDate(v.scheduledDate, v.timeZone))],
    v.status === 'offered' && ['Answer by', e(at(v.expiresAt))],
  ].filter((f): f is string[] => Boolean(f)).map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')
  const job = `<section class="card"><h2>${e(v.jobTitle)}</h2>${facts ? `<dl>${facts}</dl>` : ''}</section>`
  const body = v.status === 'offered'
    ? `${job}
<form method="post" action="/d/${e(token)}/accept"><button type="submit" class="accept" id="accept">Accept the job</button></form>
<form method="post" action="/d/${e(token)}/decline"><button type="submit" class="decline" id="decline">Decline</button></form>`
    : `<p class="status ${v.status === 'accepted' ? 'accepted' : 'closed'}" role="status" id="answered" data-status="${e(v.status)}">${e(ANSWERED[v.status] ?? 'This offer is closed.')}</p>
${job}`
  return `${clientPageStart(`Job offer from ${v.businessName}`, STYLE)}
<header><p>${e(v.businessName)}</p><h1>Job offer</h1></header>
${body}
</main>
</body>
</html>`
}

/** A link that leads nowhere (mistyped, cut short in the SMS) still gets a page a phone can read. */
function renderNotFound(): string {
  return `${clientPageStart('Job offer not found', STYLE)}
<header><h1>Job offer not found</h1></header>
<p class="status closed" role="status" id="not-found">This link does not lead to a job offer.</p>
<p>Check that the whole link from the text message or email was opened, or ask the business that sent it to send the offer again.</p>
</main>
</body>
</html>`
}

/** Runs a page route; an unknown token answers 404 with the page above instead of the API's JSON error. */
async function offerPage(ctx: Context, fn: () => Promise<void>) {
  setPageHeaders(ctx)
  try {
    await fn()
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'not_found') throw error
    ctx.status = 404
    ctx.body = renderNotFound()
  }
}

export function dispatchOfferPages(deps: Deps): Router {
  const router = new Router()
  router.get('/d/:token', (ctx) => offerPage(ctx, async () => {
    ctx.body = render(ctx.params.token!, await offerView(deps, ctx.params.token!))
  }))
  for (const answer of ['accept', 'decline'] as const) {
    router.post(`/d/:token/${answer}`, (ctx) => offerPage(ctx, async () => {
      refuseCrossSite(ctx, deps)
      await answerOffer(deps, ctx.params.token!, answer)
      ctx.status = 303
      ctx.redirect(`/d/${ctx.params.token!}`)
    }))
  }
  return router
}
