// The client's invoice pages: /i/<token> (the tax invoice, phone first, with a Pay button when a
// payment account is active), /i/<token>/pdf, /i/<token>/pay (to the provider's hosted payment
// page), and the sandbox provider's own card page /sandbox/invoices/<token>.
import { randomBytes } from 'node:crypto'
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { centsToDollars, formatCents, parseDollars } from '../../core/money.js'
import { publicInvoiceDocument, publicInvoicePdf } from '../../domains/invoicing/public.js'
import { paySandboxInvoice, sandboxPayView, startInvoicePayment } from '../../domains/payments/pay-page.js'
import { formFields, PAGE_SECURITY_HEADERS, refuseCrossSite, setPageHeaders } from '../http-hygiene.js'
import { escapeHtml as e, page } from './html.js'
import { renderInvoicePage } from './invoice-html.js'

const BANNER = '<p class="banner" role="note">Sandbox payments: this is a test page. No card is charged.</p>'

async function showInvoice(ctx: Context, deps: Deps, token: string, extra: { notice?: string; error?: string; status?: number } = {}) {
  const doc = await publicInvoiceDocument(deps, token)
  setPageHeaders(ctx)
  ctx.status = extra.status ?? 200
  ctx.body = renderInvoicePage(doc, { payUrl: doc.invoice.paymentUrl, pdfUrl: doc.invoice.pdfUrl, notice: extra.notice, error: extra.error })
}

function sandboxPage(token: string, v: Awaited<ReturnType<typeof sandboxPayView>>, error?: string): string {
  const surcharge = v.surchargePercent
    ? `<dt>Card surcharge (${e(v.surchargePercent)}%)</dt><dd id="surcharge">${formatCents(v.surchargeOnBalanceCents)}</dd><dt>Charged to the card</dt><dd id="charged">${formatCents(v.balanceCents + v.surchargeOnBalanceCents)}</dd>`
    : ''
  const form = v.balanceCents > 0
    ? `<form method="post" action="/sandbox/invoices/${e(token)}/pay">
<input type="hidden" name="attempt" value="${randomBytes(12).toString('base64url')}">
<label for="amount">Amount to pay (A$, at most the balance)</label>
<input type="text" inputmode="decimal" id="amount" name="amount" value="${e(centsToDollars(v.balanceCents).toFixed(2))}" required>
<button type="submit" id="pay">Pay with test card</button>
</form>`
    : '<p>Nothing is owed on this invoice.</p>'
  return page(`Pay ${v.invoiceNumber}`, `${BANNER}
<h1>Pay ${e(v.businessName)}</h1>
${error ? `<p class="error" role="alert">${e(error)}</p>` : ''}
<div class="card"><dl>
<dt>Invoice</dt><dd>${e(v.invoiceNumber)}</dd>
<dt>Balance</dt><dd id="balance">${formatCents(v.balanceCents)}</dd>
${surcharge}
</dl></div>
${form}
<p><a href="/i/${e(token)}">Back to the invoice</a></p>`)
}

export function invoicePages(deps: Deps): Router {
  const router = new Router()

  router.get('/i/:token', (ctx) => showInvoice(ctx, deps, ctx.params.token!, ctx.query.paid === '1' ? { notice: 'Payment received. Thank you!' } : {}))

  router.get('/i/:token/pdf', async (ctx) => {
    const { filename, pdf } = await publicInvoicePdf(deps, ctx.params.token!)
    ctx.set({ ...PAGE_SECURITY_HEADERS, 'Content-Disposition': `inline; filename="${filename}"` })
    ctx.type = 'application/pdf'
    ctx.body = pdf
  })

  router.get('/i/:token/pay', async (ctx) => {
    const token = ctx.params.token!
    try {
      const url = await startInvoicePayment(deps, token)
      ctx.set(PAGE_SECURITY_HEADERS)
      ctx.status = 303
      ctx.redirect(url ?? `/i/${token}`)
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'payment_account_required') throw error
      await showInvoice(ctx, deps, token, { status: 409, error: 'Online payment is not available for this invoice yet. Please pay by bank transfer as shown on the invoice, or contact the business.' })
    }
  })

  router.get('/sandbox/invoices/:token', async (ctx) => {
    if (deps.payments.name !== 'sandbox') throw new AppError('not_found', 'Sandbox payments are not enabled in this deployment.')
    const token = ctx.params.token!
    const view = await sandboxPayView(deps, token)
    setPageHeaders(ctx)
    ctx.body = sandboxPage(token, view)
  })

  router.post('/sandbox/invoices/:token/pay', async (ctx) => {
    refuseCrossSite(ctx, deps)
    const token = ctx.params.token!
    const { amount = '', attempt = '' } = formFields(ctx, ['amount', 'attempt'])
    try {
      const dollars = Number(amount.replace(/[$,\s]/g, ''))
      if (!amount.trim() || !Number.isFinite(dollars) || dollars <= 0) throw new AppError('validation_error', 'Enter the amount to pay, e.g. 250.00.', { messages: ['amount: a positive amount in dollars'] })
      await paySandboxInvoice(deps, token, { amountCents: parseDollars(dollars, 'amount'), attempt })
      ctx.set(PAGE_SECURITY_HEADERS)
      ctx.status = 303
      ctx.redirect(`/i/${token}?paid=1`)
    } catch (error) {
      if (!(error instanceof AppError) || error.code === 'not_found' || error.code === 'internal_error' || error.code === 'forbidden') throw error
      const view = await sandboxPayView(deps, token)
      setPageHeaders(ctx)
      ctx.status = error.status
      ctx.body = sandboxPage(token, view, error.message)
    }
  })

  return router
}
