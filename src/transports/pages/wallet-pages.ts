// Pages of wallet deposits: the sandbox's card page (/sandbox/wallet/<token>) and crypto
// confirmation page (/sandbox/crypto/<token>), which stand in for the processor's hosted payment and
// credit the deposit once however often they are posted, and the pages Stripe Checkout returns to.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import { formatDollars } from '../../core/money.js'
import { confirmSandboxDeposit, CRYPTO_SANDBOX_NOTICE, sandboxDepositView } from '../../domains/wallet/deposits.js'
import { formFields, refuseCrossSite, setPageHeaders } from '../http-hygiene.js'
import { escapeHtml as e, page } from './html.js'

const CARD_BANNER = '<p class="banner" role="note">Sandbox payments: this is a test page. No card is charged.</p>'
const CRYPTO_BANNER = `<p class="banner" role="note">${e(CRYPTO_SANDBOX_NOTICE)}</p>`

type Method = 'card' | 'crypto'
const PATHS: Record<Method, { path: string; action: string; button: string; banner: string }> = {
  card: { path: '/sandbox/wallet', action: 'pay', button: 'Pay with test card', banner: CARD_BANNER },
  crypto: { path: '/sandbox/crypto', action: 'confirm', button: 'Confirm the sandbox crypto payment', banner: CRYPTO_BANNER },
}

function depositPage(method: Method, token: string, d: Awaited<ReturnType<typeof sandboxDepositView>>): string {
  const p = PATHS[method]
  const form = d.status === 'pending'
    ? `<form method="post" action="${p.path}/${e(token)}/${p.action}"><button type="submit" id="pay">${e(p.button)}</button></form>`
    : '<p>This deposit has been credited.</p>'
  return page('Wallet deposit', `${p.banner}
<h1>Add wallet credit</h1>
<div class="card"><dl>
<dt>Credit</dt><dd id="amount">${e(formatDollars(d.amount))}${d.asset ? ` (paid in ${e(d.asset)})` : ''}</dd>
<dt>Status</dt><dd id="status">${e(d.status)}</dd>
</dl></div>
${form}`)
}

export function walletPages(deps: Deps): Router {
  const router = new Router()
  for (const method of ['card', 'crypto'] as const) {
    const p = PATHS[method]
    router.get(`${p.path}/:token`, async (ctx) => {
      const token = ctx.params.token!
      const view = await sandboxDepositView(deps, token, method)
      setPageHeaders(ctx)
      ctx.body = depositPage(method, token, view)
    })
    router.post(`${p.path}/:token/${p.action}`, async (ctx: Context) => {
      refuseCrossSite(ctx, deps)
      formFields(ctx, [])
      const { deposit, outcome } = await confirmSandboxDeposit(deps, ctx.params.token!, method)
      setPageHeaders(ctx)
      const said = outcome === 'credited' ? 'was added to the wallet' : 'had already been added to the wallet'
      ctx.body = page('Deposit complete', `${p.banner}<h1>Deposit complete</h1><p id="status">${e(formatDollars(deposit.amount))} of credit ${said}. You can close this page.</p>`)
    })
  }
  router.get('/wallet/deposit/complete', (ctx) => {
    setPageHeaders(ctx)
    ctx.body = page('Payment received', '<h1>Payment received</h1><p id="status">The credit is added to the wallet as soon as the payment processor confirms it (wallet.balance shows it). You can close this page.</p>')
  })
  router.get('/wallet/deposit/cancelled', (ctx) => {
    setPageHeaders(ctx)
    ctx.body = page('Payment cancelled', '<h1>Payment cancelled</h1><p id="status">Nothing was charged and no credit was added. Start a new deposit with wallet.deposit when ready.</p>')
  })
  return router
}
