// Pages of the local sandbox payments provider: a test checkout and a subscription portal. They
// stand in for a processor's hosted pages, and say plainly that no money moves.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { formatCents } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { findPlan, priceCents } from '../../domains/billing/plans.js'
import { cancelSubscription, completeCheckout, readSubscription, sessionCompany } from '../../domains/billing/subscription.js'
import { SANDBOX_EVENTS, simulateSubscriptionChange } from '../../domains/billing/sandbox-lifecycle.js'
import { SUBSCRIPTION_STATES } from '../../providers/payments/provider.js'
import { escapeHtml, page } from './html.js'
import { formFields, refuseCrossSite, setPageHeaders } from '../http-hygiene.js'

const BANNER = '<p class="banner" role="note">Sandbox payments: this is a test page. No card is charged.</p>'

interface SessionRow {
  kind: string
  plan_slug: string | null
  billing_cycle: 'monthly' | 'yearly' | null
  status: string
  expires_at: Date
  business_name: string
}

// Provider session ids are short and plain (cs_sandbox_..., Stripe's cs_test_...). Anything else,
// a NUL byte included, cannot be one: answer not_found before it reaches the database.
const SESSION_ID = /^[A-Za-z0-9_-]{1,255}$/

function sessionId(ctx: Context): string {
  const id = ctx.params.id ?? ''
  if (!SESSION_ID.test(id)) throw new AppError('not_found', 'Session was not found. Start a new checkout or portal session from the API.')
  return id
}

/** A form post to a sandbox page: refused from another site; it reads no fields, but the body must still be a form. */
function checkPost(ctx: Context, deps: Deps): void {
  refuseCrossSite(ctx, deps)
  formFields(ctx, [])
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

function stateForm(id: string): string {
  const options = (values: readonly string[]) => values.map((v) => `<option>${escapeHtml(v)}</option>`).join('')
  return `<h2>Simulate the processor</h2>
<form method="post" action="/sandbox/portal/${escapeHtml(id)}/state">
<label>Event <select name="event">${options(SANDBOX_EVENTS)}</select></label>
<label>New state <select name="status">${options(SUBSCRIPTION_STATES)}</select></label>
<label>Plan <input name="plan_slug" placeholder="unchanged"></label>
<label><input type="checkbox" name="renew" value="true"> Renew into the next period</label>
<button class="secondary" type="submit">Send event</button></form>`
}

export function sandboxPaymentPages(deps: Deps): Router {
  const router = new Router({ prefix: '/sandbox' })

  router.get('/checkout/:id', async (ctx) => {
    const id = sessionId(ctx)
    const { session } = await loadSession(deps, id, 'checkout')
    const plan = await findPlan(deps.db.app, session.plan_slug!)
    const amount = formatCents(priceCents(plan!, session.billing_cycle!))
    const open = session.status === 'open' && session.expires_at > deps.clock.now()
    setPageHeaders(ctx)
    ctx.body = page('Checkout', `${BANNER}
<h1>Subscribe ${escapeHtml(session.business_name)}</h1>
<div class="card"><dl>
<dt>Plan</dt><dd>${escapeHtml(plan!.name)} (${escapeHtml(session.billing_cycle)})</dd>
<dt>Amount</dt><dd>A${escapeHtml(amount)} incl. GST</dd>
<dt>Status</dt><dd id="status">${escapeHtml(session.status)}</dd>
</dl></div>
${open ? `<form method="post" action="/sandbox/checkout/${escapeHtml(id)}/pay"><button type="submit">Pay A${escapeHtml(amount)}</button></form>` : '<p>This checkout is closed.</p>'}`)
  })

  router.post('/checkout/:id/pay', async (ctx) => {
    checkPost(ctx, deps)
    const result = await completeCheckout(deps, sessionId(ctx))
    setPageHeaders(ctx)
    ctx.body = page('Payment complete', `${BANNER}<h1>Payment complete</h1><p id="status">Your ${escapeHtml(result.planSlug)} plan is now active. You can close this page.</p>`)
  })

  router.get('/portal/:id', async (ctx) => {
    const id = sessionId(ctx)
    const { companyId, session } = await loadSession(deps, id, 'portal')
    const sub = await withTenant(deps.db, companyId, (tx) => readSubscription(tx))
    const cancellable = ['active', 'trialing', 'past_due'].includes(sub.status)
    setPageHeaders(ctx)
    ctx.body = page('Manage subscription', `${BANNER}
<h1>${escapeHtml(session.business_name)}</h1>
<div class="card"><dl>
<dt>Plan</dt><dd>${escapeHtml(sub.plan_slug)} (${escapeHtml(sub.billing_cycle)})</dd>
<dt>Status</dt><dd id="status">${escapeHtml(sub.status)}</dd>
<dt>Current period ends</dt><dd>${escapeHtml(sub.current_period_end.toISOString().slice(0, 10))}</dd>
</dl></div>
${cancellable ? `<form method="post" action="/sandbox/portal/${escapeHtml(id)}/cancel"><button class="secondary" type="submit">Cancel subscription</button></form>` : ''}
${sub.provider_subscription_id ? stateForm(id) : ''}`)
  })

  // What a processor does on its own (a failed renewal, unpaid, a plan change, a renewal), delivered
  // as a processor event: domains/billing/sandbox-lifecycle.ts.
  router.post('/portal/:id/state', async (ctx) => {
    refuseCrossSite(ctx, deps)
    const id = sessionId(ctx)
    await loadSession(deps, id, 'portal')
    const outcome = await simulateSubscriptionChange(deps, id, formFields(ctx, ['status', 'plan_slug', 'event', 'renew']))
    setPageHeaders(ctx)
    ctx.body = page('Subscription changed', `${BANNER}<h1>Subscription changed</h1><p id="status">Event ${escapeHtml(outcome.event_id)}: ${escapeHtml(outcome.status)}${outcome.detail ? ` (${escapeHtml(outcome.detail)})` : ''}.</p>`)
  })

  router.post('/portal/:id/cancel', async (ctx) => {
    checkPost(ctx, deps)
    const id = sessionId(ctx)
    await loadSession(deps, id, 'portal')
    await cancelSubscription(deps, id)
    setPageHeaders(ctx)
    ctx.body = page('Subscription cancelled', `${BANNER}<h1>Subscription cancelled</h1><p id="status">The company now has free-plan features.</p>`)
  })

  return router
}
