// Pages of the local sandbox payments provider: a test checkout and a subscription portal. They
// stand in for a processor's hosted pages, and say plainly that no money moves.
import Router from '@koa/router'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { centsToDollars } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { findPlan, priceCents } from '../../domains/billing/plans.js'
import { cancelSubscription, completeCheckout, readSubscription, sessionCompany } from '../../domains/billing/subscription.js'
import { escapeHtml, page } from './html.js'

const BANNER = '<p class="banner" role="note">Sandbox payments: this is a test page. No card is charged.</p>'

interface SessionRow {
  kind: string
  plan_slug: string | null
  billing_cycle: 'monthly' | 'yearly' | null
  status: string
  expires_at: Date
  business_name: string
}

async function loadSession(deps: Deps, id: string, kind: 'checkout' | 'portal'): Promise<{ companyId: string; session: SessionRow }> {
  const companyId = await sessionCompany(deps, id)
  const session = await withTenant(deps.db, companyId, async (tx) => {
    const [row] = await tx<SessionRow[]>`
      select s.kind, s.plan_slug, s.billing_cycle, s.status, s.expires_at, c.business_name
      from checkout_sessions s join companies c on c.id = s.company_id where s.id = ${id} and s.kind = ${kind}`
    return row
  })
  if (!session) throw new AppError('not_found', 'Session was not found.')
  return { companyId, session }
}

export function sandboxPaymentPages(deps: Deps): Router {
  const router = new Router({ prefix: '/sandbox' })

  router.get('/checkout/:id', async (ctx) => {
    const { session } = await loadSession(deps, ctx.params.id!, 'checkout')
    const plan = await findPlan(deps.db.app, session.plan_slug!)
    const amount = centsToDollars(priceCents(plan!, session.billing_cycle!)).toFixed(2)
    const open = session.status === 'open' && session.expires_at > deps.clock.now()
    ctx.type = 'html'
    ctx.body = page('Checkout', `${BANNER}
<h1>Subscribe ${escapeHtml(session.business_name)}</h1>
<div class="card"><dl>
<dt>Plan</dt><dd>${escapeHtml(plan!.name)} (${escapeHtml(session.billing_cycle)})</dd>
<dt>Amount</dt><dd>A$${escapeHtml(amount)} incl. GST</dd>
<dt>Status</dt><dd id="status">${escapeHtml(session.status)}</dd>
</dl></div>
${open ? `<form method="post" action="/sandbox/checkout/${escapeHtml(ctx.params.id)}/pay"><button type="submit">Pay A$${escapeHtml(amount)}</button></form>` : '<p>This checkout is closed.</p>'}`)
  })

  router.post('/checkout/:id/pay', async (ctx) => {
    const result = await completeCheckout(deps, ctx.params.id!)
    ctx.type = 'html'
    ctx.body = page('Payment complete', `${BANNER}<h1>Payment complete</h1><p id="status">Your ${escapeHtml(result.planSlug)} plan is now active. You can close this page.</p>`)
  })

  router.get('/portal/:id', async (ctx) => {
    const { companyId, session } = await loadSession(deps, ctx.params.id!, 'portal')
    const sub = await withTenant(deps.db, companyId, (tx) => readSubscription(tx))
    const cancellable = ['active', 'trialing', 'past_due'].includes(sub.status)
    ctx.type = 'html'
    ctx.body = page('Manage subscription', `${BANNER}
<h1>${escapeHtml(session.business_name)}</h1>
<div class="card"><dl>
<dt>Plan</dt><dd>${escapeHtml(sub.plan_slug)} (${escapeHtml(sub.billing_cycle)})</dd>
<dt>Status</dt><dd id="status">${escapeHtml(sub.status)}</dd>
<dt>Current period ends</dt><dd>${escapeHtml(sub.current_period_end.toISOString().slice(0, 10))}</dd>
</dl></div>
${cancellable ? `<form method="post" action="/sandbox/portal/${escapeHtml(ctx.params.id)}/cancel"><button class="secondary" type="submit">Cancel subscription</button></form>` : ''}`)
  })

  router.post('/portal/:id/cancel', async (ctx) => {
    await loadSession(deps, ctx.params.id!, 'portal')
    await cancelSubscription(deps, ctx.params.id!)
    ctx.type = 'html'
    ctx.body = page('Subscription cancelled', `${BANNER}<h1>Subscription cancelled</h1><p id="status">The company now has free-plan features.</p>`)
  })

  return router
}
