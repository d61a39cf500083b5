// The unsubscribe page of a marketing email, /u/<token>. GET only shows a button (mail scanners and
// link previews open links, and must not unsubscribe anyone); POST records the opt-out, from the
// button or from a mail client's RFC 8058 one-click request (List-Unsubscribe=One-Click).
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import { unsubscribe, unsubscribeView, type UnsubscribeView } from '../../domains/comms/unsubscribe.js'
import { refuseCrossSite, setPageHeaders } from '../http-hygiene.js'
import { CLIENT_PAGE_STYLE, clientPageStart, escapeHtml as e } from './html.js'

const STYLE = `${CLIENT_PAGE_STYLE}
  button { width: 100%; font-size: 1.1rem; padding: .9rem; margin-top: .75rem; border: 0; border-radius: .5rem; cursor: pointer; background: #7f1d1d; color: #fff; }
  .status { padding: .75rem 1rem; border-radius: .5rem; font-weight: 600; background: #e3f4e8; color: #14532d; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
`

function render(token: string, v: UnsubscribeView): string {
  const body = v.optedOut
    ? `<p class="status" role="status" id="unsubscribed">${e(v.maskedAddress)} is unsubscribed. ${e(v.businessName)} will not send it marketing emails again.</p>
<p>You will still get messages about work you have booked, such as quotes, invoices and appointment notices.</p>`
    : `<div class="card"><p>Stop marketing emails from ${e(v.businessName)} to ${e(v.maskedAddress)}?</p>
<form method="post" action="/u/${e(token)}"><button type="submit" id="unsubscribe">Unsubscribe</button></form></div>
<p>You will still get messages about work you have booked, such as quotes, invoices and appointment notices.</p>`
  return `${clientPageStart(`Unsubscribe from ${v.businessName}`, STYLE)}
<header><p>${e(v.businessName)}</p><h1>Unsubscribe</h1></header>
${body}
</main>
</body>
</html>`
}

function show(ctx: Context, token: string, view: UnsubscribeView) {
  setPageHeaders(ctx)
  ctx.body = render(token, view)
}

export function unsubscribePages(deps: Deps): Router {
  const router = new Router()
  router.get('/u/:token', async (ctx) => show(ctx, ctx.params.token!, await unsubscribeView(deps, ctx.params.token!)))
  router.post('/u/:token', async (ctx) => {
    refuseCrossSite(ctx, deps)
    show(ctx, ctx.params.token!, await unsubscribe(deps, ctx.params.token!))
  })
  return router
}
