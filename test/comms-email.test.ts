// comms.send_email through a real SMTP server (EMAIL_PROVIDER=smtp, smtp-server started here):
// the HTML and text parts, the recipients, the sanitising, the marketing email's identification and
// RFC 8058 unsubscribe headers, the /u/<token> page (a GET changes nothing, a POST opts out), and
// the opt-out blocking the next marketing email but not a transactional one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { parseMail, startLocalSmtp, type LocalSmtp } from './helpers/smtp.js'

let app: TestApp
let smtp: LocalSmtp
let client: Client
let company: Awaited<ReturnType<typeof onboard>>

beforeAll(async () => {
  smtp = await startLocalSmtp({ reject: /^nobody@/ })
  app = await startTestApp({ config: { EMAIL_PROVIDER: 'smtp', SMTP_URL: smtp.url, EMAIL_FROM: 'Sparky Bros <jobs@sparky.example>' } })
  company = await onboard(app, { plan: 'business', business_name: 'Sparky Bros Electrical', abn: '51824753556' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
  await smtp?.close()
})

const mailWithSubject = (subject: string) =>
  waitFor(async () => smtp.received.find((m) => parseMail(m.raw).headers.get('subject') === subject), Boolean, 20_000)

async function listed(id: string) {
  return (await tool(client, 'comms.list', { channel: 'email', limit: 100 })).messages.find((m: any) => m.id === id)
}

describe('comms.send_email over SMTP', () => {
  it('sends sanitised HTML with a derived text part to the recipient, and records sent', async () => {
    const body = '<h1>Your quote</h1><p>Hi <strong>Jordan</strong>, see <a href="https://example.com/q/1">the quote</a>.</p>' +
      '<script>alert("x")</script><p onclick="steal()">Thanks</p><img src="javascript:alert(1)"><iframe src="https://evil.example"></iframe>'
    const { message } = await tool(client, 'comms.send_email', { to: 'jordan@example.com.au', subject: 'Your quote', body })
    expect(message).toMatchObject({ channel: 'email', status: 'queued', provider: 'smtp', to: 'jordan@example.com.au', marketing: false })
    expect(message.body).not.toMatch(/script|onclick|javascript:|iframe/)

    const mail = (await mailWithSubject('Your quote'))!
    expect(mail.to).toEqual(['jordan@example.com.au'])
    expect(mail.from).toBe('jobs@sparky.example')
    const parsed = parseMail(mail.raw)
    expect(parsed.headers.get('reply-to')).toBe(company.email)
    expect(parsed.html).toContain('<strong>Jordan</strong>')
    expect(parsed.html).toContain('<a href="https://example.com/q/1">the quote</a>')
    expect(parsed.html).toContain('<p>Thanks</p>')
    expect(parsed.html).not.toMatch(/<script|alert|onclick|javascript:|<iframe/i)
    expect(parsed.text).toMatch(/YOUR QUOTE/i)
    expect(parsed.text).toContain('Hi Jordan, see the quote [https://example.com/q/1].')
    expect(parsed.text).not.toContain('<')
    // A transactional email carries no unsubscribe header.
    expect(parsed.headers.has('list-unsubscribe')).toBe(false)
    expect(await waitFor(() => listed(message.id), (m) => m?.status === 'sent')).toMatchObject({ status: 'sent', sentAt: expect.any(String) })
  })

  it('a recipient the server rejects is failed for good, not retried, and its count given back', async () => {
    const usage = async () => (await app.call('GET', '/api/v1/usage', { key: company.api_key })).body.usage.emails.used
    const before = await usage()
    const { message } = await tool(client, 'comms.send_email', { to: 'nobody@example.com.au', subject: 'Rejected', body: '<p>Hello</p>' })
    const failed = await waitFor(() => listed(message.id), (m) => m?.status === 'failed')
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(/SMTP refused|rejected/i), sentAt: null })
    expect(smtp.received.some((m) => m.to.includes('nobody@example.com.au'))).toBe(false)
    expect(await usage()).toBe(before)
  })

  it('HTML that is nothing but unsafe content is a validation_error naming body', async () => {
    const error = await toolError(client, 'comms.send_email', { to: 'jordan@example.com.au', subject: 'Empty', body: '<script>alert(1)</script>' })
    expect(error).toMatchObject({ error: 'validation_error', messages: [expect.stringMatching(/^body: /)] })
  })
})

describe('marketing email and the unsubscribe link (Spam Act)', () => {
  let unsubscribeUrl = ''

  it('identifies the business, links to the unsubscribe page and carries RFC 8058 headers', async () => {
    const { message } = await tool(client, 'comms.send_email', {
      to: 'Casey@Example.com.au', subject: 'Spring special', body: '<p>20% off switchboard upgrades in October.</p>', message_type: 'marketing',
    })
    expect(message).toMatchObject({ marketing: true, messageType: 'marketing' })
    const parsed = parseMail((await mailWithSubject('Spring special'))!.raw)
    const header = parsed.headers.get('list-unsubscribe')!
    expect(header).toMatch(/^<http:\/\/localhost:\d+\/u\/[A-Za-z0-9_-]{32}>$/)
    unsubscribeUrl = header.slice(1, -1)
    expect(parsed.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(parsed.html).toContain('Sparky Bros Electrical (ABN 51 824 753 556)')
    expect(parsed.html).toContain(`<a href="${unsubscribeUrl}">Unsubscribe</a>`)
    expect(parsed.text).toContain(`Unsubscribe: ${unsubscribeUrl}`)
    expect(parsed.text).toContain('Sparky Bros Electrical (ABN 51 824 753 556)')
  })

  it('GET on the unsubscribe page only shows a button; it opts nobody out', async () => {
    const page = await fetch(unsubscribeUrl)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page.headers.get('cache-control')).toBe('no-store')
    const html = await page.text()
    expect(html).toContain('<form method="post"')
    expect(html).toContain('to C****@Example.com.au?') // the address as written, all but its first letter hidden
    expect(html).not.toContain('Casey')
    expect(await app.owner`select * from message_opt_outs`).toEqual([])
    expect((await fetch(`${new URL(unsubscribeUrl).origin}/u/not-a-real-token-at-all-xx`)).status).toBe(404)
  })

  it('a cross-site POST is refused', async () => {
    const res = await fetch(unsubscribeUrl, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: '' })
    expect(res.status).toBe(403)
    expect(await app.owner`select * from message_opt_outs`).toEqual([])
  })

  it('the one-click POST records the opt-out; the next marketing email is not sent, a transactional one is', async () => {
    const res = await fetch(unsubscribeUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('is unsubscribed')
    const optOuts = await app.call('GET', '/api/v1/comms/opt-outs?channel=email', { key: company.api_key })
    expect(optOuts.body.optOuts).toEqual([expect.objectContaining({ channel: 'email', address: 'casey@example.com.au', source: 'email_unsubscribe', inForce: true })])

    const blocked = await tool(client, 'comms.send_email', { to: 'casey@example.com.au', subject: 'Another offer', body: '<p>More savings</p>', message_type: 'marketing' })
    expect(blocked.message).toMatchObject({ status: 'failed', error: expect.stringMatching(/not sent: .*unsubscribed/) })
    const receipt = await tool(client, 'comms.send_email', { to: 'CASEY@example.com.au', subject: 'Your receipt', body: '<p>Thanks for your payment.</p>' })
    expect(receipt.message.status).toBe('queued')
    await mailWithSubject('Your receipt')
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.received.some((m) => parseMail(m.raw).headers.get('subject') === 'Another offer')).toBe(false)
  })
})
