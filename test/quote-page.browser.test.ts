// The client-facing quote page in a real browser (Debian's chromium via playwright-core), at phone
// width: view, accept with a typed name, decline, and an expired quote that cannot be accepted.
// Screenshots go to test-results/screenshots/.
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext } from 'playwright-core'
import { launchChromium, phoneContext } from './helpers/browser.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { ManualClock } from '../src/core/clock.js'

const SHOTS = 'test-results/screenshots'
const clock = new ManualClock(new Date())
let app: TestApp
let client: Client
let browser: Browser
let company: Awaited<ReturnType<typeof onboard>>
let lead: any

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  app = await startTestApp({ clock })
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', business_name: 'Harbour City Plumbing', abn: '51 824 753 556', phone: '02 9000 1234' })
  client = await connectHttp(app, company.api_key)
  lead = (await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654', suburb: 'Marrickville' })).lead
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await client?.close()
  await app?.stop()
})

const phone = (): Promise<BrowserContext> => phoneContext(browser)

async function sentQuote(validUntil?: string) {
  const { quote } = await tool(client, 'quotes.create', {
    lead_id: lead.id,
    valid_until: validUntil,
    notes: 'Includes removal of the old unit.',
    line_items: [
      { description: 'Supply & install 250L electric hot water system', quantity: 1, unitPrice: 1650 },
      { description: 'Labour (hours)', quantity: 2.5, unitPrice: 95.5 },
      { description: 'Tempering valve', quantity: 1, unitPrice: 129.99 },
    ],
  })
  const sent = await tool(client, 'quotes.send', { quote_id: quote.id })
  return { id: quote.id as string, number: quote.quoteNumber as string, url: sent.public_url as string }
}

describe('public quote page at phone width', () => {
  it('shows the business, line items, GST and total; accepting with a typed name makes it Accepted everywhere', async () => {
    const quote = await sentQuote()
    const context = await phone()
    const page = await context.newPage()
    const response = await page.goto(quote.url)
    expect(response!.status()).toBe(200)
    await expect(page.locator('h1').textContent()).resolves.toBe(`Quote ${quote.number}`)
    const body = await page.locator('body').innerText()
    expect(body).toContain('Harbour City Plumbing · ABN 51 824 753 556')
    expect(body).toContain('Supply & install 250L electric hot water system')
    expect(await page.locator('#subtotal').textContent()).toBe('$2,018.74')
    expect(await page.locator('#gst').textContent()).toBe('$201.87')
    expect(await page.locator('#total').textContent()).toBe('$2,220.61')
    expect(await page.locator('#quote-status').getAttribute('data-status')).toBe('Viewed')
    // Fits a phone: no horizontal scrolling.
    // Runs in the page (a string keeps DOM types out of this Node project).
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true)
    await page.screenshot({ path: `${SHOTS}/quote-viewed-phone.png`, fullPage: true })

    // Opening it again does not move viewed_at.
    const [first] = await app.owner`select viewed_at from quotes where id = ${quote.id}`
    await page.reload()
    const [second] = await app.owner`select viewed_at from quotes where id = ${quote.id}`
    expect(second!.viewed_at.getTime()).toBe(first!.viewed_at.getTime())

    await page.getByLabel('Type your full name to accept').fill('Morgan Blake')
    await page.getByRole('button', { name: /Accept quote/ }).click()
    await page.waitForURL(quote.url)
    expect(await page.locator('#quote-status').getAttribute('data-status')).toBe('Accepted')
    expect(await page.locator('#quote-status').textContent()).toContain('Accepted by Morgan Blake')
    expect(await page.getByRole('button', { name: /Accept quote/ }).count()).toBe(0)
    await page.screenshot({ path: `${SHOTS}/quote-accepted-phone.png`, fullPage: true })
    await context.close()

    const rest = await app.call('GET', '/api/v1/quotes?status=Accepted', { key: company.api_key })
    expect(rest.body.quotes.find((q: any) => q.id === quote.id)).toMatchObject({ status: 'Accepted', acceptedName: 'Morgan Blake' })
    const mcp = (await tool(client, 'quotes.list', { status: 'Accepted' })).quotes.find((q: any) => q.id === quote.id)
    expect(mcp).toMatchObject({ status: 'Accepted', acceptedName: 'Morgan Blake' })
    const [stored] = await app.owner`select accepted_ip, accepted_at from quotes where id = ${quote.id}`
    expect(stored!.accepted_ip).toMatch(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/)
    expect(stored!.accepted_at).not.toBeNull()
    const events = await app.owner`select event_type from event_outbox where entity_id = ${quote.id} order by id`
    expect(events.map((e) => e.event_type)).toContain('quote.accepted')
    expect((await tool(client, 'leads.list', { limit: 100 })).leads.find((l: any) => l.id === lead.id).status).toBe('Won')
  })

  it('accepting needs a typed name', async () => {
    const quote = await sentQuote()
    const res = await fetch(`${quote.url}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=+', redirect: 'manual' })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('Type your full name to accept')
    const [row] = await app.owner`select status from quotes where id = ${quote.id}`
    expect(row!.status).toBe('Viewed')
  })

  it('declining asks an optional reason and makes it Declined', async () => {
    const quote = await sentQuote()
    const context = await phone()
    const page = await context.newPage()
    await page.goto(quote.url)
    await page.getByText('Decline this quote').click()
    await page.getByLabel('Reason (optional)').fill('Went with a cheaper quote')
    await page.getByRole('button', { name: 'Decline quote' }).click()
    await page.waitForURL(quote.url)
    expect(await page.locator('#quote-status').getAttribute('data-status')).toBe('Declined')
    await page.screenshot({ path: `${SHOTS}/quote-declined-phone.png`, fullPage: true })
    await context.close()
    const [row] = await app.owner`select status, decline_reason from quotes where id = ${quote.id}`
    expect(row).toMatchObject({ status: 'Declined', decline_reason: 'Went with a cheaper quote' })
  })

  it('a second visitor on an expired quote sees Expired and cannot accept', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(clock.now())
    const quote = await sentQuote(today)
    try {
      clock.set(new Date(clock.now().getTime() + 2 * 86_400_000))
      const context = await phone()
      const page = await context.newPage()
      await page.goto(quote.url)
      expect(await page.locator('#quote-status').getAttribute('data-status')).toBe('Expired')
      expect(await page.locator('#quote-status').textContent()).toContain('can no longer be accepted')
      expect(await page.getByRole('button', { name: /Accept quote/ }).count()).toBe(0)
      await page.screenshot({ path: `${SHOTS}/quote-expired-phone.png`, fullPage: true })
      await context.close()
      const forced = await fetch(`${quote.url}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Morgan+Blake', redirect: 'manual' })
      expect(forced.status).toBe(409)
      const [row] = await app.owner`select status, accepted_at from quotes where id = ${quote.id}`
      expect(row).toMatchObject({ status: 'Expired', accepted_at: null })
    } finally {
      clock.set(new Date())
    }
  })

  it('Sent -> Accepted straight from the link (never viewed); an answered quote cannot be answered again', async () => {
    const quote = await sentQuote()
    const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' as const }
    const accepted = await fetch(`${quote.url}/accept`, { ...form, body: 'name=Morgan+Blake' })
    expect(accepted.status).toBe(303)
    const [row] = await app.owner`select status, accepted_name from quotes where id = ${quote.id}`
    expect(row).toMatchObject({ status: 'Accepted', accepted_name: 'Morgan Blake' })
    const declined = await fetch(`${quote.url}/decline`, { ...form, body: 'reason=changed+my+mind' })
    expect(declined.status).toBe(409)
    expect(await declined.text()).toContain('already Accepted')
    const again = await fetch(`${quote.url}/accept`, { ...form, body: 'name=Someone+Else' })
    expect(again.status).toBe(409)
    const [after] = await app.owner`select status, accepted_name from quotes where id = ${quote.id}`
    expect(after).toMatchObject({ status: 'Accepted', accepted_name: 'Morgan Blake' })
  })

  it('an unknown or Draft quote has no page', async () => {
    expect((await fetch(`${app.url}/q/${'x'.repeat(32)}`)).status).toBe(404)
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Draft only', quantity: 1, unitPrice: 10 }] })
    const [row] = await app.owner`select public_token from quotes where id = ${quote.id}`
    expect((await fetch(`${app.url}/q/${row!.public_token}`)).status).toBe(404)
  })
})
