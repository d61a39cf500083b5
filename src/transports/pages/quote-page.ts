// The client-facing quote page: server-rendered, accessible HTML for a phone. GET shows the quote
// (Sent -> Viewed), POST accept takes the typed name as a signature, POST decline an optional reason.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { acceptPublicQuote, declinePublicQuote, openPublicQuote, type PublicQuoteView } from '../../domains/quotes/public.js'
import { CLIENT_ANSWER_STYLE, CLIENT_PAGE_STYLE, clientPageStart, escapeHtml as e } from './html.js'
import { formFields, refuseCrossSite, setPageHeaders } from '../http-hygiene.js'
import { formatAbn } from '../../domains/onboarding/abn.js'
import { formatDollars } from '../../core/money.js'
import { longLocalDate } from '../../core/zoned-time.js'

const STYLE = `${CLIENT_PAGE_STYLE}${CLIENT_ANSWER_STYLE}
  table { width: 100%; border-collapse: collapse; font-size: .95rem; }
  th, td { text-align: left; padding: .5rem .25rem; border-bottom: 1px solid #e6e8eb; vertical-align: top; }
  th.num, td.num { text-align: right; white-space: nowrap; }
  tfoot th, tfoot td { border-bottom: 0; } tfoot tr.total th, tfoot tr.total td { font-size: 1.15rem; font-weight: 700; }
  .status.Accepted { background: #e3f4e8; color: #14532d; } .status.Declined, .status.Expired { background: #fdecec; color: #7f1d1d; }
  .status.Sent, .status.Viewed { background: #e8f0fe; color: #1e3a8a; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=text], textarea { width: 100%; box-sizing: border-box; font-size: 1.1rem; padding: .75rem; border: 1px solid #8a8f98; border-radius: .5rem; }
  details summary { cursor: pointer; color: #7f1d1d; font-weight: 600; padding: .5rem 0; }
  .error { background: #fdecec; color: #7f1d1d; border-radius: .5rem; padding: .75rem; }
  .muted { color: #555; font-size: .9rem; }
`

/** After acceptance: the deposit invoice, with a way to pay what is still owed on it. */
function depositNote(d: NonNullable<PublicQuoteView['depositInvoice']>): string {
  const path = (url: string) => new URL(url).pathname
  if (d.balance <= 0) return `<p class="muted" id="deposit">Deposit paid, thank you. <a href="${e(path(d.publicUrl))}">View the deposit invoice</a>.</p>`
  const pay = d.paymentUrl ? `<a href="${e(path(d.paymentUrl))}" id="pay-deposit">Pay the ${formatDollars(d.balance)} deposit</a>` : `Deposit of ${formatDollars(d.balance)} owing`
  return `<p class="status Sent" id="deposit">${pay} · <a href="${e(path(d.publicUrl))}">deposit invoice</a></p>`
}

function render(v: PublicQuoteView, token: string, error?: string): string {
  const q = v.quote
  const longDate = (iso: string) => longLocalDate(iso, v.business.timeZone) // the business's own calendar
  const answerable = q.status === 'Sent' || q.status === 'Viewed'
  const statusText: Record<string, string> = {
    Sent: `Valid until ${longDate(q.validUntil)}`,
    Viewed: `Valid until ${longDate(q.validUntil)}`,
    Accepted: `Accepted by ${q.acceptedName ?? ''} on ${q.acceptedAt ? longDate(q.acceptedAt) : ''}. Thank you! ${v.business.name} will be in touch to book the work.`,
    Declined: `Declined${q.declinedAt ? ` on ${longDate(q.declinedAt)}` : ''}. Thanks for letting us know.`,
    Expired: `This quote expired on ${longDate(q.validUntil)} and can no longer be accepted. Contact ${v.business.name} for a new quote.`,
    Draft: '',
  }
  const rows = q.lineItems.map((l) => `<tr><td>${e(l.description)}</td><td class="num">${e(l.quantity)}</td><td class="num">${formatDollars(l.unitPrice)}</td><td class="num">${formatDollars(l.total)}</td></tr>`).join('')
  const contact = [v.business.phone, v.business.email].filter(Boolean).map(e).join(' · ')
  return `${clientPageStart(`Quote ${q.quoteNumber} from ${v.business.name}`, STYLE)}
<header>
  <p>${e(v.business.name)}${v.business.abn ? ` · ABN ${e(formatAbn(v.business.abn))}` : ''}</p>
  ${contact ? `<p>${contact}</p>` : ''}
  <h1>Quote ${e(q.quoteNumber)}</h1>
  <p>For ${e(v.client.name)}${v.client.suburb ? `, ${e(v.client.suburb)}` : ''} · ${e(longDate(q.createdAt))}</p>
</header>
<p class="status ${e(q.status)}" role="status" id="quote-status" data-status="${e(q.status)}">${e(statusText[q.status] ?? q.status)}</p>
${error ? `<p class="error" role="alert">${e(error)}</p>` : ''}
${v.depositInvoice ? depositNote(v.depositInvoice) : ''}
<section class="card" aria-labelledby="items-heading">
  <h2 id="items-heading">What's included</h2>
  <table>
    <thead><tr><th scope="col">Item</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot>
      <tr><th scope="row" colspan="3">Subtotal (ex GST)</th><td class="num" id="subtotal">${formatDollars(q.subtotal)}</td></tr>
      <tr><th scope="row" colspan="3">GST (10%)</th><td class="num" id="gst">${formatDollars(q.gst)}</td></tr>
      <tr class="total"><th scope="row" colspan="3">Total (incl. GST)</th><td class="num" id="total">${formatDollars(q.total)}</td></tr>
    </tfoot>
  </table>
  ${q.notes ? `<p>${e(q.notes)}</p>` : ''}
  <p class="muted">Valid until ${e(longDate(q.validUntil))}. Prices in Australian dollars.</p>
</section>
${answerable ? `
<section class="card" aria-labelledby="accept-heading">
  <h2 id="accept-heading">Accept this quote</h2>
  <form method="post" action="/q/${e(token)}/accept">
    <label for="signature">Type your full name to accept</label>
    <input type="text" id="signature" name="name" autocomplete="name" required minlength="2" maxlength="200">
    <p class="muted">Typing your name is your signature. We record it with the time and your internet address.</p>
    <button type="submit" class="accept">${q.deposit ? `Accept and pay ${formatDollars(q.deposit.amount)} deposit` : `Accept quote for ${formatDollars(q.total)}`}</button>
    ${q.deposit ? `<p class="muted">A deposit of ${formatDollars(q.deposit.amount)} incl. GST confirms the booking; it comes off the final invoice.</p>` : ''}
  </form>
</section>
<section class="card">
  <details>
    <summary>Decline this quote</summary>
    <form method="post" action="/q/${e(token)}/decline">
      <label for="reason">Reason (optional)</label>
      <textarea id="reason" name="reason" rows="3" maxlength="1000"></textarea>
      <button type="submit" class="decline">Decline quote</button>
    </form>
  </details>
</section>` : ''}
</main>
</body>
</html>`
}

async function answer(ctx: Context, deps: Deps, act: () => Promise<PublicQuoteView>) {
  const token = ctx.params.token!
  setPageHeaders(ctx)
  try {
    const result = await act()
    ctx.status = 303
    // Accepting a quote that asks for a deposit takes the client straight to paying it.
    const deposit = result.depositInvoice
    ctx.redirect(deposit ? new URL(deposit.paymentUrl ?? deposit.publicUrl).pathname : `/q/${token}`)
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'not_found' || error.code === 'internal_error') throw error
    // Show the page again with the reason (expired, already answered, name missing).
    const v = await openPublicQuote(deps, token)
    ctx.status = error.status
    ctx.body = render(v, token, error.message)
  }
}

export function quotePages(deps: Deps): Router {
  const router = new Router({ prefix: '/q' })
  router.get('/:token', async (ctx) => {
    const v = await openPublicQuote(deps, ctx.params.token!)
    setPageHeaders(ctx)
    ctx.body = render(v, ctx.params.token!)
  })
  // Both posts are checked (cross-site, field types) before anything is read or changed: a refused
  // post must not even mark the quote Viewed, and an odd field is the caller's error, never a 500.
  router.post('/:token/accept', (ctx) => {
    refuseCrossSite(ctx, deps)
    const { name = '' } = formFields(ctx, ['name'])
    return answer(ctx, deps, () => acceptPublicQuote(deps, ctx.params.token!, { name, ip: ctx.ip }))
  })
  router.post('/:token/decline', (ctx) => {
    refuseCrossSite(ctx, deps)
    const { reason } = formFields(ctx, ['reason'])
    return answer(ctx, deps, () => declinePublicQuote(deps, ctx.params.token!, reason || null))
  })
  return router
}
