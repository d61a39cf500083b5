// The public pages under attack: odd form fields and path ids are client errors (never 5xx) that
// change nothing; form posts from another site are refused; every response says nosniff and the
// sandbox pages send the quote page's security headers; request logs never carry a page token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { launchChromium } from './helpers/browser.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { redactPath } from '../src/transports/http-hygiene.js'

let app: TestApp
let client: Client
let lead: any
let siteOrigin: string
const secrets: string[] = [] // every token and session id a path carried in this file

beforeAll(async () => {
  app = await startTestApp()
  siteOrigin = new URL(app.runtime.deps.urls.siteRoot).origin
  const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  lead = (await tool(client, 'leads.create', { name: 'Jordan Lee', phone: '0412 555 010' })).lead
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

async function sentQuote(): Promise<{ id: string; token: string }> {
  const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Replace tap washer', quantity: 1, unitPrice: 120 }] })
  const sent = await tool(client, 'quotes.send', { quote_id: quote.id })
  const token = new URL(sent.public_url).pathname.split('/')[2]!
  secrets.push(token)
  return { id: quote.id, token }
}

const quoteRow = async (id: string) => (await app.owner`select status, accepted_at, declined_at, viewed_at from quotes where id = ${id}`)[0]!

/** A form post as a script or server would send it (no browser headers unless given). */
function post(path: string, body: string, contentType: string, headers: Record<string, string> = {}) {
  return fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body, redirect: 'manual' })
}
const json = (path: string, body: string, headers?: Record<string, string>) => post(path, body, 'application/json', headers)
const form = (path: string, body: string, headers?: Record<string, string>) => post(path, body, 'application/x-www-form-urlencoded', headers)

async function expectClientError(res: Response, status: number, code: string) {
  const text = await res.text()
  expect(res.status, text).toBe(status)
  const body = JSON.parse(text)
  expect(body.error).toBe(code)
  expect(typeof body.message).toBe('string')
  return body
}

describe('odd input on the public quote page', () => {
  it('a field of the wrong type is 400 validation_error, with or without a real token, and the quote is untouched', async () => {
    const quote = await sentQuote()
    for (const token of [quote.token, 'x'.repeat(32)]) {
      const accept = `/q/${token}/accept`
      const decline = `/q/${token}/decline`
      const cases: Array<[string, Promise<Response>, string]> = [
        ['JSON object name', json(accept, '{"name":{"toString":1}}'), 'name:'],
        ['JSON number name', json(accept, '{"name":42}'), 'name:'],
        ['form repeated name', form(accept, 'name=Jordan&name=Lee'), 'name:'],
        ['NUL in name', form(accept, 'name=Jordan%00Lee'), 'NUL'],
        ['JSON array body', json(accept, '["Jordan Lee"]'), 'body:'],
        ['JSON object reason', json(decline, '{"reason":{"toString":1}}'), 'reason:'],
        ['JSON list reason', json(decline, '{"reason":["too dear"]}'), 'reason:'],
        ['lone surrogate in reason', json(decline, '{"reason":"\\ud800"}'), 'reason:'],
      ]
      for (const [label, response, mentions] of cases) {
        const body = await expectClientError(await response, 400, 'validation_error')
        expect(body.messages.join(' '), label).toContain(mentions)
      }
    }
    // Refused before anything was read: not even marked Viewed.
    expect(await quoteRow(quote.id)).toMatchObject({ status: 'Sent', accepted_at: null, declined_at: null, viewed_at: null })
  })

  it('a missing name is still the page asking for it (HTML, 400); bracketed form keys are just other fields', async () => {
    const quote = await sentQuote()
    for (const res of [await json(`/q/${quote.token}/accept`, '{}'), await form(`/q/${quote.token}/accept`, 'name[toString]=1')]) {
      expect(res.status).toBe(400)
      expect(await res.text()).toContain('Type your full name to accept')
    }
    expect((await quoteRow(quote.id)).accepted_at).toBeNull()
  })
})

describe('odd ids in sandbox page paths', () => {
  it('a NUL, non-ASCII or overlong id is a clean 404 on every page', async () => {
    const ids = ['%00', 'cs_sandbox_%00abc', 'cs_%E2%9C%93', 'x'.repeat(300)]
    for (const id of ids) {
      for (const [method, path] of [['GET', `/sandbox/checkout/${id}`], ['POST', `/sandbox/checkout/${id}/pay`], ['GET', `/sandbox/portal/${id}`], ['POST', `/sandbox/portal/${id}/cancel`]] as const) {
        const res = await fetch(`${app.url}${path}`, { method })
        await expectClientError(res, 404, 'not_found')
      }
    }
    await expectClientError(await fetch(`${app.url}/q/%00`), 404, 'not_found')
  })
})

/** A business-plan checkout for a professional trial: returns its session id and the key. */
async function openCheckout() {
  const company = await onboard(app, { plan: 'professional' })
  const checkout = await app.call('POST', '/api/v1/billing/checkout', { key: company.api_key, body: { plan_slug: 'business' } })
  expect(checkout.status).toBe(200)
  secrets.push(checkout.body.session_id)
  return { key: company.api_key as string, sessionId: checkout.body.session_id as string }
}
const subscription = async (key: string) => (await app.call('GET', '/api/v1/billing', { key })).body.subscription

describe('cross-site form posts', () => {
  it('accept and decline refuse another site (Origin, Origin null, Sec-Fetch-Site) and change nothing', async () => {
    const quote = await sentQuote()
    const refused: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'null' }, // a sandboxed frame or data: URL on another site
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://sub.localhost.example' },
    ]
    for (const headers of refused) {
      const body = await expectClientError(await form(`/q/${quote.token}/accept`, 'name=Jordan+Lee', headers), 403, 'forbidden')
      expect(body.message).toContain(app.runtime.deps.urls.siteRoot)
      await expectClientError(await form(`/q/${quote.token}/decline`, 'reason=no', headers), 403, 'forbidden')
    }
    expect(await quoteRow(quote.id)).toMatchObject({ status: 'Sent', accepted_at: null, declined_at: null, viewed_at: null })
  })

  it('the page itself may post: same-origin (even with Origin null from a no-referrer page) or the site origin', async () => {
    const first = await sentQuote()
    const accepted = await form(`/q/${first.token}/accept`, 'name=Jordan+Lee', { 'sec-fetch-site': 'same-origin', origin: 'null' })
    expect(accepted.status).toBe(303)
    expect((await quoteRow(first.id)).status).toBe('Accepted')
    const second = await sentQuote()
    const declined = await form(`/q/${second.token}/decline`, 'reason=later', { origin: siteOrigin })
    expect(declined.status).toBe(303)
    expect((await quoteRow(second.id)).status).toBe('Declined')
  })

  it('sandbox pay and cancel refuse another site; from the page they work, and an odd body is 400', async () => {
    const { key, sessionId } = await openCheckout()
    await expectClientError(await form(`/sandbox/checkout/${sessionId}/pay`, '', { origin: 'https://evil.example' }), 403, 'forbidden')
    await expectClientError(await form(`/sandbox/checkout/${sessionId}/pay`, '', { 'sec-fetch-site': 'cross-site' }), 403, 'forbidden')
    await expectClientError(await json(`/sandbox/checkout/${sessionId}/pay`, '[1]', { origin: siteOrigin }), 400, 'validation_error')
    expect((await subscription(key)).status).toBe('trialing')

    // Fields the page does not read are ignored, whatever their type.
    const paid = await json(`/sandbox/checkout/${sessionId}/pay`, '{"plan":{"toString":1}}', { origin: siteOrigin, 'sec-fetch-site': 'same-origin' })
    expect(paid.status).toBe(200)
    expect(await paid.text()).toContain('business plan is now active')
    expect((await subscription(key)).status).toBe('active')

    const portal = await app.call('POST', '/api/v1/billing/portal', { key })
    const portalId = new URL(portal.body.portal_url).pathname.split('/')[3]!
    secrets.push(portalId)
    await expectClientError(await form(`/sandbox/portal/${portalId}/cancel`, '', { origin: 'https://evil.example' }), 403, 'forbidden')
    expect((await subscription(key)).status).toBe('active')
    const cancelled = await form(`/sandbox/portal/${portalId}/cancel`, '', { 'sec-fetch-site': 'same-origin' })
    expect(cancelled.status).toBe(200)
    expect((await subscription(key)).status).toBe('canceled')
  })
})

describe('cross-site form posts from a real browser (Debian chromium)', () => {
  it('a form on another site that posts to the accept URL is refused; the same form on the quote page works', async () => {
    const quote = await sentQuote()
    const acceptUrl = `${app.runtime.deps.urls.siteRoot}/q/${quote.token}/accept`
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      // An attacker's page, served by the browser's request interception at an origin of its own.
      await page.route('http://attacker.test/', (route) => route.fulfill({
        contentType: 'text/html',
        body: `<form method="post" action="${acceptUrl}"><input name="name" value="Forged Name"><button>Go</button></form>`,
      }))
      await page.goto('http://attacker.test/')
      const [refused] = await Promise.all([page.waitForResponse(acceptUrl), page.click('button')])
      expect(refused.status()).toBe(403)
      expect(await quoteRow(quote.id)).toMatchObject({ accepted_at: null })

      await page.goto(`${app.runtime.deps.urls.siteRoot}/q/${quote.token}`)
      await page.getByLabel('Type your full name to accept').fill('Jordan Lee')
      const [accepted] = await Promise.all([page.waitForResponse(acceptUrl), page.getByRole('button', { name: /Accept quote/ }).click()])
      expect(accepted.status()).toBe(303)
      expect((await quoteRow(quote.id)).status).toBe('Accepted')
    } finally {
      await browser.close()
    }
  })
})

describe('security headers', () => {
  it('every response sends X-Content-Type-Options: nosniff, errors and MCP included', async () => {
    const quote = await sentQuote()
    const responses = [
      await fetch(`${app.url}/healthz`),
      await fetch(`${app.url}/api/v1/plans`),
      await fetch(`${app.url}/no/such/route`),
      await fetch(`${app.url}/api/v1/leads`), // 401
      await json('/api/v1/onboard', '{not json'), // 400
      await fetch(`${app.url}/q/${quote.token}`),
      await form(`/q/${quote.token}/accept`, 'name=x', { origin: 'https://evil.example' }), // 403
      await json('/api/v1/mcp', '{"jsonrpc":"2.0","id":1,"method":"ping"}', { accept: 'application/json, text/event-stream' }),
      await fetch(`${app.url}/.well-known/agent-card.json`),
    ]
    for (const res of responses) {
      expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff')
      await res.body?.cancel()
    }
  })

  it('the sandbox pages send the same security headers as the quote page', async () => {
    const quote = await sentQuote()
    const quotePage = await fetch(`${app.url}/q/${quote.token}`)
    const names = ['content-security-policy', 'referrer-policy', 'cache-control', 'x-robots-tag', 'x-frame-options', 'x-content-type-options']
    const expected = Object.fromEntries(names.map((n) => [n, quotePage.headers.get(n)]))
    // What the quote page promises: no framing, no script, the token never sent to another site.
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(expected['content-security-policy']).not.toContain('script-src')
    expect(['same-origin', 'no-referrer']).toContain(expected['referrer-policy'])

    const { sessionId } = await openCheckout()
    const pages = [
      await fetch(`${app.url}/sandbox/checkout/${sessionId}`),
      await form(`/sandbox/checkout/${sessionId}/pay`, ''),
    ]
    for (const page of pages) {
      expect(page.status).toBe(200)
      expect(Object.fromEntries(names.map((n) => [n, page.headers.get(n)])), page.url).toEqual(expected)
    }
  })
})

describe('request logs', () => {
  it('redact the token or session id in /q/, /sandbox/checkout/ and /sandbox/portal/ paths', () => {
    expect(redactPath('/q/AbC123_-xyzAbC123_-xyzAbC123_-xy/accept')).toBe('/q/[redacted]/accept')
    expect(redactPath('/Q/tok')).toBe('/Q/[redacted]')
    expect(redactPath('//q//tok/decline')).toBe('//q//[redacted]/decline')
    expect(redactPath('/sandbox/checkout/cs_sandbox_abc/pay')).toBe('/sandbox/checkout/[redacted]/pay')
    expect(redactPath('/u/unsubscribeToken123')).toBe('/u/[redacted]')
    expect(redactPath('/SANDBOX/Portal/bps_sandbox_abc')).toBe('/SANDBOX/Portal/[redacted]')
    for (const untouched of ['/api/v1/leads', '/qq/abc', '/q', '/sandbox/other/abc', '/api/v1/q/abc']) expect(redactPath(untouched)).toBe(untouched)
  })

  it('no request log line of this file carries a token or session id', async () => {
    const quote = await sentQuote()
    await fetch(`${app.url}/q/${quote.token}`)
    await fetch(`${app.url}/Q/${quote.token}`)
    const requestLines = app.logs.filter((line) => line.msg === 'request')
    expect(requestLines.some((line) => line.path === '/q/[redacted]')).toBe(true)
    expect(requestLines.some((line) => line.path === '/sandbox/checkout/[redacted]/pay')).toBe(true)
    const text = JSON.stringify(requestLines)
    expect(secrets.length).toBeGreaterThan(5)
    for (const secret of secrets) expect(text).not.toContain(secret)
  })
})
