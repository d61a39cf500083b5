// The subcontractor's job offer page (/d/<token>) in a real browser (Debian's chromium via
// playwright-core) at phone width, with offers started by subcontractors.dispatch on the real Temporal
// dev server: the offer shown, accepted by a tap, declined on a second offer (the run moves on), an
// expired and an answered offer shown for what they are, and an unknown token's 404.
// Screenshots go to test-results/screenshots/.
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, inject, it, type ExpectStatic } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { launchChromium, phoneContext } from './helpers/browser.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'

const SHOTS = 'test-results/screenshots'
// Long enough for a browser tap on a busy machine, short enough to watch one expire.
const TIMEOUT_MS = 8000
const PHONE_WIDTH = 390
const FUTURE = '2099-06-30'
let app: TestApp
let temporal: Client
let browser: Browser
let client: McpClient

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  app = await startTestApp({ config: { DISPATCH_OFFER_TIMEOUT_MS: TIMEOUT_MS } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', business_name: 'Harbour City Electrical' })
  client = await connectHttp(app, company.api_key)
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await client?.close()
  await temporal?.connection.close()
  await app?.stop()
})

/** A job booked for 7:30 am Sydney time (the evening before in UTC), offered to `phones` in turn. */
async function dispatched(title: string, phones: string[]) {
  const { lead } = await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654' })
  const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title, amount: 440, address: '12 Church St, Parramatta NSW 2150', scheduled_date: '2099-03-15T07:30:00+11:00' })
  const subs: string[] = []
  for (const [i, phone] of phones.entries()) {
    const { subcontractor } = await tool(client, 'subcontractors.register', {
      name: `Sub ${i} ${phone}`, trades: ['electrical'], phone, email: `sub${phone.replace(/\D/g, '')}@example.com.au`, licence_number: 'L-1', licence_state: 'NSW',
      licence_expiry: FUTURE, insurer: 'QBE', policy_number: 'PL-1', insurance_expiry: FUTURE, service_suburbs: ['parramatta'],
    })
    await tool(client, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'verify' })
    await tool(client, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'activate' })
    subs.push(subcontractor.id)
  }
  const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: subs })
  return { jobId: job.id as string, subs, workflowId: out.workflow_id as string }
}

const offers = (jobId: string) => app.owner<{ subcontractor_id: string; status: string; token: string }[]>`
  select o.subcontractor_id, o.status, o.token from dispatch_offers o join dispatches d on d.id = o.dispatch_id
  where d.job_id = ${jobId} and o.status <> 'skipped' order by o.position`
const offerSms = (jobId: string) => app.owner<{ body: string }[]>`
  select body from communications where job_id = ${jobId} and message_type = 'dispatch_offer' and channel = 'sms' order by created_at`
const jobSub = async (jobId: string) => (await app.owner<{ subcontractor_id: string | null }[]>`select subcontractor_id from jobs where id = ${jobId}`)[0]!.subcontractor_id
const dispatchStatus = async (jobId: string) => (await app.owner<{ status: string }[]>`select status from dispatches where job_id = ${jobId}`)[0]!.status

/** The nth offer's page address (1-based), read from the link in its SMS, as the subcontractor gets it. */
async function nthOfferUrl(jobId: string, n: number): Promise<{ url: string; token: string }> {
  await waitFor(async () => [(await offers(jobId)).length, (await offerSms(jobId)).length], ([o, s]) => o! >= n && s! >= n, 20_000)
  const token = (await offers(jobId))[n - 1]!.token
  const link = (await offerSms(jobId))[n - 1]!.body.match(/https?:\/\/\S+\/d\/[\w-]+/)?.[0]
  if (!link?.endsWith(`/d/${token}`)) throw new Error(`offer ${n}'s SMS has no link to /d/${token}`)
  return { url: `${app.url}${new URL(link).pathname}`, token }
}

async function openOnPhone(url: string): Promise<Page> {
  const page = await (await phoneContext(browser)).newPage()
  const response = await page.goto(url)
  if (response!.status() !== 200) throw new Error(`GET ${url}: ${response!.status()}`)
  return page
}

/** Fits a 390 px phone: no sideways scroll, and each button a full-size tap target inside the screen. */
async function expectFitsPhone(expect: ExpectStatic, page: Page, buttons: string[]) {
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE_WIDTH)
  expect(await page.locator('meta[name=viewport]').getAttribute('content')).toContain('width=device-width')
  for (const selector of buttons) {
    const box = (await page.locator(selector).boundingBox())!
    expect(box.height, selector).toBeGreaterThanOrEqual(44)
    expect(box.x, selector).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width, selector).toBeLessThanOrEqual(PHONE_WIDTH)
  }
}

const answered = async (page: Page) => (await page.locator('#answered').textContent())!.trim()
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/dispatch-offer-${name}-phone.png`, fullPage: true })

describe.concurrent('dispatch offer page at phone width', () => {
  it('shows the job, business, address and date with two tappable buttons; a tap accepts and the job gets the subcontractor', async ({ expect }) => {
    const { jobId, subs, workflowId } = await dispatched('Switchboard upgrade', ['0412 100 001'])
    const { url } = await nthOfferUrl(jobId, 1)
    const page = await openOnPhone(url)
    expect(await page.title()).toBe('Job offer from Harbour City Electrical')
    const body = await page.locator('body').innerText()
    expect(body).toContain('Harbour City Electrical')
    expect(body).toContain('Switchboard upgrade')
    expect(body).toContain('12 Church St, Parramatta NSW 2150')
    expect(body).toContain('15 March 2099') // the booking's own day in Sydney, not its UTC date (the 14th)
    expect(body).toMatch(/Answer by\s+\d{1,2}:\d{2}\s?[ap]m, \d{1,2} \w+ \d{4}/) // the business's clock, not an ISO string
    await expectFitsPhone(expect, page, ['#accept', '#decline'])
    await shot(page, 'open')

    await page.locator('#accept').tap()
    await page.waitForSelector('#answered')
    expect(page.url()).toBe(url)
    expect(await answered(page)).toContain('You accepted this job')
    expect(await page.locator('#answered').getAttribute('data-status')).toBe('accepted')
    expect(await page.locator('#accept, #decline').count()).toBe(0)
    await expectFitsPhone(expect, page, [])
    await shot(page, 'accepted')
    await page.context().close()

    expect(await temporal.workflow.getHandle(workflowId).result()).toMatchObject({ status: 'accepted', subcontractorId: subs[0] })
    expect(await dispatchStatus(jobId)).toBe('accepted')
    expect(await jobSub(jobId)).toBe(subs[0])
  })

  it('declining the first offer says so, and the dispatch moves on to the second subcontractor', async ({ expect }) => {
    const { jobId, subs, workflowId } = await dispatched('Downlights, 12 rooms', ['0412 100 011', '0412 100 012'])
    const first = await nthOfferUrl(jobId, 1)
    const page = await openOnPhone(first.url)
    await page.locator('#decline').tap()
    await page.waitForSelector('#answered')
    expect(await answered(page)).toContain('You declined this job')
    expect(await page.locator('#answered').getAttribute('data-status')).toBe('declined')
    await shot(page, 'declined')
    await page.context().close()

    const second = await nthOfferUrl(jobId, 2)
    expect((await offers(jobId)).map((o) => [o.subcontractor_id, o.status])).toEqual([[subs[0], 'declined'], [subs[1], 'offered']])
    // The second subcontractor's page is open for them; the first one's stays declined.
    const secondPage = await openOnPhone(second.url)
    await expectFitsPhone(expect, secondPage, ['#accept', '#decline'])
    await secondPage.context().close()
    await fetch(`${second.url}/decline`, { method: 'POST', redirect: 'manual' })
    expect(await temporal.workflow.getHandle(workflowId).result()).toMatchObject({ status: 'exhausted' })
    expect(await jobSub(jobId)).toBeNull()
  })

  it('an offer that ran out of time says it expired, offers no buttons, and a late tap changes nothing', async ({ expect }) => {
    const { jobId, workflowId } = await dispatched('Smoke alarms', ['0412 100 021'])
    const { url, token } = await nthOfferUrl(jobId, 1)
    await waitFor(() => offers(jobId), (rows) => rows[0]?.status === 'timed_out', TIMEOUT_MS + 15_000)
    const page = await openOnPhone(url)
    expect(await answered(page)).toBe('This offer has expired.')
    expect(await page.locator('#answered').getAttribute('data-status')).toBe('timed_out')
    expect(await page.locator('body').innerText()).not.toContain('Answer by')
    expect(await page.locator('#accept, #decline').count()).toBe(0)
    expect(await page.locator('body').innerText()).toContain('Smoke alarms')
    await expectFitsPhone(expect, page, [])
    await shot(page, 'expired')
    await page.context().close()

    const late = await fetch(`${app.url}/d/${token}/accept`, { method: 'POST', redirect: 'manual' })
    expect(late.status).toBeLessThan(500)
    expect((await offers(jobId))[0]!.status).toBe('timed_out')
    expect(await temporal.workflow.getHandle(workflowId).result()).toMatchObject({ status: 'exhausted' })
    expect(await jobSub(jobId)).toBeNull()
  })

  it('an unknown token is a 404 page, not a server error', async ({ expect }) => {
    const page = await (await phoneContext(browser)).newPage()
    for (const token of ['x'.repeat(32), 'not a token', '']) {
      const response = await page.goto(`${app.url}/d/${encodeURIComponent(token)}`)
      expect(response!.status(), token).toBe(404)
    }
    const response = await page.goto(`${app.url}/d/${'x'.repeat(32)}`)
    expect(response!.status()).toBe(404)
    expect(await page.locator('h1').textContent()).toBe('Job offer not found')
    expect(await page.locator('body').innerText()).toContain('ask the business that sent it to send the offer again')
    await expectFitsPhone(expect, page, [])
    await shot(page, 'unknown')
    for (const answer of ['accept', 'decline']) {
      const post = await fetch(`${app.url}/d/${'x'.repeat(32)}/${answer}`, { method: 'POST', redirect: 'manual' })
      expect(post.status, answer).toBe(404)
      expect(post.headers.get('content-type'), answer).toContain('text/html')
    }
    await page.context().close()
  })
})
