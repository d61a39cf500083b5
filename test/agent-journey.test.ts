// Issue 21's acceptance journey: the owner's whole request run by an agent holding only the official
// MCP SDK client (streamable HTTP) and the key from sign-up. "Sign us up, quote this hot-water job
// with a 20% deposit, send it, schedule the job after acceptance, complete it, invoice the balance,
// take payment, ask for a review, subscribe a payments webhook, chase with approval, tell me this
// month's figures." The only REST call is the public sign-up; the client's own actions (accepting
// on the quote page, paying on the sandbox card page) are plain form posts to the pages they were
// sent, as a browser would make them; nothing reads or writes the database behind the service.
// Every figure is worked out here in integer cents from the quote's lines (GST 10% of the subtotal
// half up, deposit 20% of the total, balance the rest), never read back from the service.
// A "day" of automation time is one second (AUTOMATION_DAY_MS), so the payment chase's first step
// comes a second after its invoice is sent instead of a day.
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { header, startReceiver, type Hit, type Receiver } from './helpers/receiver.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { createRegistry } from '../src/domains/index.js'

const DAY_MS = 1000
const ZONE = 'Australia/Melbourne'
const REVIEW_LINK = 'https://g.page/r/harbour-city-plumbing/review'
const MOBILE = '0412 987 654'
const MOBILE_E164 = '+61412987654'
/** The count for the same request, before this work. */
const CALLS_BEFORE = 79

let app: TestApp
let receiver: Receiver
let client: Client
let calls = 0

beforeAll(async () => {
  receiver = await startReceiver()
  app = await startTestApp({ config: { AUTOMATION_DAY_MS: DAY_MS, WEBHOOK_ALLOW_PRIVATE_TARGETS: true } })
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
  await receiver?.close()
})

// ---- The oracle: integer cents, written apart from the service ----
const cents = (dollars: number) => Math.round(dollars * 100)
/** n / d rounded half up, for non-negative integers. */
const halfUp = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d))

const toolNames = new Set(createRegistry().mcpTools().map((t) => t.name))
let withNextSteps = 0
/** A state-changing result: when it carries next_steps, each names a real tool and says why. */
function checkNextSteps(result: any) {
  if (!('next_steps' in result)) return
  withNextSteps++
  expect(Array.isArray(result.next_steps)).toBe(true)
  for (const step of result.next_steps) {
    expect(toolNames.has(step.tool)).toBe(true)
    expect(typeof step.why).toBe('string')
    expect(step.why.length).toBeGreaterThan(0)
  }
}

/** The company's local date today, as YYYY-MM-DD. */
const localToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())

/**
 * The client pays on the sandbox card page as a browser would: open the link they were given (it
 * leads to the card page), then post that page's own form, amount as shown. Returns the amount.
 */
async function payAsClient(link: string): Promise<string> {
  const page = await fetch(link)
  expect(page.status).toBe(200)
  expect(new URL(page.url).pathname).toMatch(/^\/sandbox\/invoices\//)
  const html = await page.text()
  const field = (re: RegExp) => re.exec(html)?.[1] ?? ''
  const action = field(/<form method="post" action="([^"]+)"/)
  const attempt = field(/name="attempt" value="([^"]+)"/)
  const amount = field(/name="amount" value="([^"]+)"/)
  const paid = await fetch(new URL(action, page.url), {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ attempt, amount }).toString(), redirect: 'manual',
  })
  expect(paid.status).toBe(303)
  expect(paid.headers.get('location')).toMatch(/^\/i\/[^/?]+\?paid=1$/)
  return amount
}

/** A webhook request checked with the official Standard Webhooks library and by recomputing X-Webhook-Signature; its body. */
function verified(hit: Hit, secret: string): any {
  expect(() => new Webhook(secret).verify(hit.body, {
    'webhook-id': header(hit, 'webhook-id'), 'webhook-timestamp': header(hit, 'webhook-timestamp'), 'webhook-signature': header(hit, 'webhook-signature'),
  })).not.toThrow()
  const parts = header(hit, 'x-webhook-signature').split(',').map((p) => p.split('='))
  const t = parts.find(([k]) => k === 't')?.[1]
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  expect(parts.filter(([k]) => k === 'v1').map(([, v]) => v)).toContain(createHmac('sha256', key).update(`${t}.${hit.body}`).digest('hex'))
  return JSON.parse(hit.body)
}

describe('an agent with only an MCP client runs the whole request', () => {
  it('sign-up to this month\'s figures, every figure checked against an independent computation', async () => {
    // 1. Sign-up: the one public REST call, giving what later steps need (state, time zone, review link).
    const company = await onboard(app, {
      business_name: 'Harbour City Plumbing', plan: 'business', stripe_payment_method_id: 'pm_card_visa',
      state: 'VIC', time_zone: ZONE, review_link: REVIEW_LINK, review_platform: 'google',
    })
    client = await connectHttp(app, company.api_key)
    const callTool = client.callTool.bind(client)
    client.callTool = ((...args: Parameters<typeof callTool>) => { calls++; return callTool(...args) }) as typeof client.callTool
    const act = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await tool(client, name, args)
      checkNextSteps(result)
      return result
    }

    // Payments need an account: connected over MCP (the sandbox account is active at once).
    expect((await act('payments.connect_account')).account).toMatchObject({ status: 'active', connected: true })

    // 2. The lead.
    const { lead } = await act('leads.create', { name: 'Jane Citizen', phone: MOBILE, email: 'jane@example.com.au', serviceType: 'Hot water system replacement', suburb: 'Brunswick' })

    // 3. The quote with a 20% deposit; its figures worked out here.
    const lines = [
      { description: 'Supply 315L heat pump hot water system', quantity: 1, unitPrice: 2450 },
      { description: 'Installation labour (hours)', quantity: 3.5, unitPrice: 110 },
      { description: 'Tempering valve and fittings', quantity: 1, unitPrice: 140 },
    ]
    const lineCents = lines.map((l) => halfUp(Math.round(l.quantity * 1000) * cents(l.unitPrice), 1000))
    const subtotal = lineCents.reduce((a, b) => a + b, 0)
    const gst = halfUp(subtotal, 10)
    const total = subtotal + gst
    const deposit = halfUp(total * 20, 100)
    const balance = total - deposit
    // The figures, which the computation must reproduce.
    expect([total, deposit, balance]).toEqual([327_250, 65_450, 261_800])
    // A deposit invoice is GST-inclusive: one eleventh of it is GST; the final invoice carries the rest of the quote's GST.
    const depositGst = halfUp(deposit, 11)
    const balanceGst = gst - depositGst

    const { quote } = await act('quotes.create', { lead_id: lead.id, line_items: lines, deposit_percent: 20 })
    expect([quote.subtotal, quote.gst, quote.total].map(cents)).toEqual([subtotal, gst, total])
    expect(quote.lineItems.map((l: any) => cents(l.total))).toEqual(lineCents)
    expect(quote.deposit).toMatchObject({ percent: 20, invoiceId: null })
    expect(cents(quote.deposit.amount)).toBe(deposit)

    // 4. Sent by SMS and email: one greeting, the amount as "$3,272.50", the link.
    const sent = await act('quotes.send', { quote_id: quote.id, send_sms: true, send_email: true })
    expect(sent.quote.status).toBe('Sent')
    expect(sent.delivery.channels).toEqual(['sms', 'email'])
    const sms = sent.messages.find((m: any) => m.channel === 'sms')
    expect(sms.to).toBe(MOBILE_E164)
    expect(sms.text).toContain('$3,272.50')
    expect(sms.text).toContain(sent.public_url)
    expect(sms.text.match(/\bHi\b/g) ?? []).toHaveLength(1)

    // 5. The client accepts on the quote page (their action, a form post), and is taken to pay the deposit.
    const token = new URL(sent.public_url).pathname.split('/').pop()!
    const accepted = await fetch(`${app.url}/q/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Jane+Citizen', redirect: 'manual' })
    expect(accepted.status).toBe(303)
    const depositPayPath = accepted.headers.get('location')!

    // Over MCP: Accepted, its job opened at once (Quoted, to schedule), its deposit invoice issued.
    const listed = (await act('quotes.list', { lead_id: lead.id })).quotes.find((q: any) => q.id === quote.id)
    expect(listed.status).toBe('Accepted')
    expect(listed.job_id).toEqual(expect.any(String))
    expect(listed.deposit.invoiceId).toEqual(expect.any(String))
    const jobId = listed.job_id as string
    const { invoice: depositInvoice } = await act('invoicing.get', { id: listed.deposit.invoiceId })
    expect(depositInvoice).toMatchObject({ kind: 'deposit', quoteId: quote.id })
    expect([depositInvoice.total, depositInvoice.gst, depositInvoice.balance].map(cents)).toEqual([deposit, depositGst, deposit])
    expect(new URL(depositInvoice.paymentUrl).pathname).toBe(depositPayPath)

    // 6. The client pays the deposit on the sandbox card page.
    expect(cents(Number(await payAsClient(depositInvoice.paymentUrl)))).toBe(deposit)

    // 7. Schedule (the next business day in the state given at sign-up), then complete.
    const scheduled = await act('workflows.schedule_job', { job_id: jobId })
    expect(scheduled).toMatchObject({ status: 'completed', job_id: jobId, state: 'VIC' })
    expect(scheduled.local_date > localToday()).toBe(true)
    expect([0, 6]).not.toContain(new Date(`${scheduled.local_date}T00:00:00Z`).getUTCDay())
    const done = await act('jobs.complete', { job_id: jobId, satisfaction_rating: 5 })
    expect(done.job).toMatchObject({ id: jobId, status: 'Completed', quoteId: quote.id })
    expect(cents(done.job.amount)).toBe(total)
    expect(done.job.invoicing).toEqual({ invoiced: deposit / 100, paid: deposit / 100, outstanding: 0, invoice_count: 1 })
    // Done before the booked day: accepted, and the result says so.
    expect(done.warnings).toHaveLength(1)
    expect(done.warnings[0]).toContain(`Completed on ${localToday()}`)

    // 11 (before the final payment). A payments webhook to a receiver of our own.
    const hook = await act('webhooks.subscribe', { url: receiver.url('/payments'), events: ['payment.received'], description: 'Payments to the books' })
    expect(hook.subscription).toMatchObject({ status: 'active', events: ['payment.received'] })

    // 8. The final invoice: the quote's lines less the deposit, the balance to the cent.
    const final = await act('invoicing.generate', { job_id: jobId })
    expect(final.invoice.kind).toBe('final')
    expect([final.invoice.subtotal, final.invoice.gst, final.invoice.total].map(cents)).toEqual([subtotal - (deposit - depositGst), balanceGst, balance])
    expect(cents(final.total)).toBe(balance)
    expect(final.invoice.lineItems.map((l: any) => [l.description, cents(l.total)])).toEqual([
      ...lines.map((l, i) => [l.description, lineCents[i]]),
      [`Less deposit ${depositInvoice.invoiceNumber}`, -(deposit - depositGst)],
    ])

    // 9. The payment link by SMS and email; the client pays on the sandbox page; the invoice is Paid.
    const link = await act('payments.send_link', { job_id: jobId, channel: 'both' })
    expect(link.invoice.id).toBe(final.invoice.id)
    expect(cents(link.amount)).toBe(balance)
    expect(link.delivery.channels).toEqual(['sms', 'email'])
    expect(link.messages.find((m: any) => m.channel === 'sms').text).toContain('$2,618.00')
    expect(cents(Number(await payAsClient(link.payment_url)))).toBe(balance)
    const paid = (await act('invoicing.list', { job_id: jobId })).invoices
    expect(paid.map((i: any) => [i.kind, i.status, cents(i.balance)]).sort()).toEqual([['deposit', 'Paid', 0], ['final', 'Paid', 0]])

    // The webhook: one payment.received, signed, for the final invoice's balance.
    const [delivery] = await waitFor(async () => receiver.at('/payments'), (hits) => hits.length >= 1, 15_000)
    const event = verified(delivery!, hook.secret)
    expect(header(delivery!, 'webhook-id')).toBe(event.id)
    expect(event).toMatchObject({ type: 'payment.received', company_id: company.company_id, data: { invoice: { id: final.invoice.id, status: 'Paid' } } })
    expect(cents(event.data.payment.amount)).toBe(balance)

    // 10. The review request, linking to the review page given at sign-up.
    const review = await act('reviews.request', { job_id: jobId })
    expect(review).toMatchObject({ sent: true, already_requested: false })
    expect(review.request).toMatchObject({ jobId, platform: 'google', url: REVIEW_LINK })
    expect(review.request.channels).toContain('sms')

    // 12. Chase with approval: reminders wait for the owner. A second, small job, invoiced and sent, left unpaid.
    const gated = await act('workflows.toggle', {
      workflow_id: 'chase_payment', enabled: true, require_approval: true,
      settings: { steps: [{ offset_days: 1, tone: 'friendly', channel: 'sms' }], approval_expiry_hours: 720 },
    })
    expect(gated.workflow).toMatchObject({ requireApproval: true, supportsApproval: true, enabled: true })
    const smallAmount = 440 // the job's value, what the client pays (incl. GST)
    const { job: small } = await act('jobs.create', { lead_id: lead.id, title: 'Replace leaking mixer tap', amount: smallAmount })
    await act('jobs.complete', { job_id: small.id })
    const unpaid = await act('invoicing.generate', { job_id: small.id, due_in_days: 0, send_sms: true })
    expect(unpaid.invoice.status).toBe('Sent')
    expect([unpaid.invoice.total, unpaid.invoice.gst].map(cents)).toEqual([cents(smallAmount), halfUp(cents(smallAmount), 11)])
    const chase = await act('workflows.chase_payment', { jobId: small.id })
    expect(chase.existing).toMatchObject([{ invoice_id: unpaid.invoice.id, status: 'running' }])

    const pending = await waitFor(() => act('workflows.pending_actions', { workflow_id: 'chase_payment' }), (l) => l.actions.length >= 1, 15_000, 500)
    expect(pending.actions).toHaveLength(1)
    const held = pending.actions[0]
    expect(held).toMatchObject({ workflow: 'chase_payment', status: 'pending', messages: [{ channel: 'sms', to: MOBILE_E164 }] })
    expect(held.summary).toContain(unpaid.invoice.invoiceNumber)
    expect(held.messages[0].text).toContain('$440.00')
    const approved = await act('workflows.approve_action', { action_id: held.id })
    expect(approved).toMatchObject({ alreadyDecided: false, action: { status: 'executed', outcome: { sent: [{ channel: 'sms', to: MOBILE_E164 }], failed: [] } } })
    const chased = (await act('comms.list', { job_id: small.id, channel: 'sms' })).messages.filter((m: any) => m.messageType === 'invoice_chase')
    expect(chased.map((m: any) => m.body)).toEqual([held.messages[0].text])

    // 13. This month's figures: what was paid (the quote, in two payments), its GST split on the cash
    // basis (each payment's share of its invoice's GST), and the small invoice still owed.
    const fin = await act('analytics.financials', { period: 'this_month' })
    const gstPaid = halfUp(deposit * depositGst, deposit) + halfUp(balance * balanceGst, balance)
    expect(fin.period).toMatchObject({ calendar: 'this_month', from: `${localToday().slice(0, 7)}-01`, to: localToday() })
    expect(fin.payments_received).toBe(2)
    expect(cents(fin.revenue)).toBe(deposit + balance)
    expect(cents(fin.gst_collected)).toBe(gstPaid)
    expect(cents(fin.revenue_ex_gst)).toBe(deposit + balance - gstPaid)
    expect([fin.revenue, fin.revenue_ex_gst, fin.gst_collected]).toEqual([3272.5, 2975, 297.5])
    expect(cents(fin.invoiced)).toBe(total + cents(smallAmount))
    expect([cents(fin.outstanding), fin.outstanding_count]).toEqual([cents(smallAmount), 1])

    // The payments webhook received the one payment made after it was subscribed, once.
    expect(receiver.at('/payments')).toHaveLength(1)

    // The whole request took a fraction of the 79 calls.
    console.log(`agent journey: ${calls} MCP tool calls (issue 21 counted ${CALLS_BEFORE}); ${withNextSteps} results carried next_steps`)
    expect(calls).toBeLessThanOrEqual(40)
  })
})
