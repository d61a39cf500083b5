// Review requests and review platforms: through MCP and REST, messages delivered by the real
// deliverMessages workflow on the Temporal dev server (local outbox providers).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { connectClient } from '../src/temporal/connection.js'

let app: TestApp
let temporal: Client
let company: Awaited<ReturnType<typeof onboard>>
let client: McpClient
let lead: any
beforeAll(async () => {
  app = await startTestApp()
  temporal = await connectClient(inject('temporalAddress'), 'default')
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', business_name: 'Sparky Bros Electrical' })
  client = await connectHttp(app, company.api_key)
  lead = (await tool(client, 'leads.create', { name: 'Quinn Harper', phone: '0411 222 333', email: 'quinn@example.com' })).lead
})
afterAll(async () => {
  await client?.close()
  await temporal?.connection.close()
  await app?.stop()
})

const GOOGLE = 'https://g.page/r/sparky-bros/review'
const WORD_OF_MOUTH = 'https://www.wordofmouth.com.au/reviews/sparky-bros'

const newJob = async (c = client, leadId = lead.id) =>
  (await tool(c, 'jobs.create', { lead_id: leadId, title: 'Switchboard upgrade', scheduled_date: '2026-09-01T08:00:00+10:00' })).job.id as string
const completedJob = async (c = client, leadId = lead.id) => {
  const id = await newJob(c, leadId)
  await tool(c, 'jobs.complete', { job_id: id })
  return id
}
const reviewMessages = (jobId: string) =>
  app.owner`select channel, to_address, body, subject, idempotency_key from communications where job_id = ${jobId} and message_type = 'review_request' order by created_at, channel`
const settle = (workflowId: string) => temporal.workflow.getHandle(workflowId).result()

describe('review platforms and links', () => {
  it('lists the platforms, none set up at first; PATCH /settings/reviews sets https links and the default', async () => {
    const before = await tool(client, 'reviews.platforms')
    expect(before.platforms.map((p: any) => p.platform)).toEqual(
      expect.arrayContaining(['google', 'facebook', 'hipages', 'productreview', 'wordofmouth']),
    )
    expect(before.platforms.find((p: any) => p.platform === 'wordofmouth').name).toBe('Word of Mouth')
    expect(before.platforms.every((p: any) => !p.configured && !p.is_default && p.url === null)).toBe(true)
    expect(before.default_platform).toBeNull()

    // Each platform's link must be on its own site: a Facebook page or a look-alike host is not a Google link.
    for (const url of ['https://www.facebook.com/sparky-bros/reviews', 'https://g.page.example.com/r/x', 'https://example.com/review']) {
      const res = await app.call('PATCH', '/api/v1/settings/reviews', { key: company.api_key, body: { links: { google: url } } })
      expect(res.status, url).toBe(400)
      expect(res.body.messages, url).toEqual([expect.stringMatching(/^links\.google: must be a page on google's own site \(g\.page, google\.com/)])
    }
    for (const url of ['http://g.page/r/x', 'ftp://example.com/x', 'https://localhost/x', 'not a url']) {
      const res = await app.call('PATCH', '/api/v1/settings/reviews', { key: company.api_key, body: { links: { google: url } } })
      expect(res.status, url).toBe(400)
      expect(res.body.error).toBe('validation_error')
    }
    const noLink = await app.call('PATCH', '/api/v1/settings/reviews', { key: company.api_key, body: { default_platform: 'hipages' } })
    expect(noLink.status).toBe(400)
    expect(noLink.body.messages[0]).toMatch(/^default_platform:/)

    const set = await app.call('PATCH', '/api/v1/settings/reviews', {
      key: company.api_key, body: { links: { google: GOOGLE, wordofmouth: WORD_OF_MOUTH }, default_platform: 'wordofmouth' },
    })
    expect(set.status).toBe(200)
    const after = await tool(client, 'reviews.platforms')
    expect(after.default_platform).toBe('wordofmouth')
    expect(after.platforms.filter((p: any) => p.configured).map((p: any) => [p.platform, p.url, p.is_default])).toEqual([
      ['google', GOOGLE, false], ['wordofmouth', WORD_OF_MOUTH, true],
    ])
    expect((await app.call('GET', '/api/v1/settings/reviews', { key: company.api_key })).body).toEqual(after)
  })
})

describe('reviews.request', () => {
  it('refuses a job that is not Completed', async () => {
    const id = await newJob()
    const error = await toolError(client, 'reviews.request', { job_id: id })
    expect(error.error).toBe('conflict')
    expect(error.message).toMatch(/must be completed first/)
    expect(await app.owner`select 1 from review_requests where job_id = ${id}`).toHaveLength(0)
  })

  it('sends the default link once per job; again without force sends nothing; with force sends again', async () => {
    const id = await completedJob()
    const first = await tool(client, 'reviews.request', { job_id: id })
    expect(first).toMatchObject({ sent: true, already_requested: false, request: { jobId: id, requestNumber: 1, platform: 'wordofmouth', url: WORD_OF_MOUTH, channels: ['sms'] } })
    await settle(first.request.workflowId)
    let messages = await reviewMessages(id)
    expect(messages.map((m) => [m.channel, m.to_address])).toEqual([['sms', '+61411222333']])
    expect(messages[0]!.body).toContain(WORD_OF_MOUTH)
    expect(messages[0]!.body).toContain('Hi Quinn')
    const job = (await tool(client, 'jobs.list', { lead_id: lead.id })).jobs.find((j: any) => j.id === id)
    expect(job.review_requested_at).toBe(first.request.createdAt)

    const again = await tool(client, 'reviews.request', { job_id: id })
    expect(again).toMatchObject({ sent: false, already_requested: true, request: { id: first.request.id, requestNumber: 1 } })
    expect(again.note).toMatch(/force/)
    await new Promise((r) => setTimeout(r, 500))
    expect(await reviewMessages(id)).toHaveLength(1)

    const forced = await tool(client, 'reviews.request', { job_id: id, force: true, platform: 'google', channel: 'both', message: 'Thanks Quinn! A quick review helps us a lot:' })
    expect(forced).toMatchObject({ sent: true, request: { requestNumber: 2, platform: 'google', url: GOOGLE, channels: ['sms', 'email'] } })
    await settle(forced.request.workflowId)
    messages = await reviewMessages(id)
    expect(messages).toHaveLength(3)
    const latest = messages.filter((m) => m.idempotency_key.startsWith(`review:${id}:2:`))
    expect(latest.map((m) => m.channel).sort()).toEqual(['email', 'sms'])
    for (const m of latest) expect(m.body).toContain(GOOGLE)
    expect(latest.find((m) => m.channel === 'sms')!.body).toContain(`Thanks Quinn! A quick review helps us a lot: ${GOOGLE}`)
    expect(latest.find((m) => m.channel === 'email')!.to_address).toBe('quinn@example.com')
  })

  it('a platform without a link, or a client who cannot be reached, is a validation_error naming the field', async () => {
    const id = await completedJob()
    const facebook = await toolError(client, 'reviews.request', { job_id: id, platform: 'facebook' })
    expect(facebook.error).toBe('validation_error')
    expect(facebook.messages[0]).toMatch(/^platform: .*PATCH \/api\/v1\/settings\/reviews/)
    const noEmail = (await tool(client, 'leads.create', { name: 'Robin Mobile', phone: '0400 111 222' })).lead
    const other = await completedJob(client, noEmail.id)
    const unreachable = await toolError(client, 'reviews.request', { job_id: other, channel: 'email' })
    expect(unreachable.error).toBe('validation_error')
    expect(unreachable.messages[0]).toMatch(/^channel: email/)
    expect(await app.owner`select 1 from review_requests where job_id in (${id}, ${other})`).toHaveLength(0)
  })

  it('jobs.complete with request_review really sends it, on the same path', async () => {
    const id = await newJob()
    const res = await tool(client, 'jobs.complete', { job_id: id, satisfaction_rating: 4, request_review: true })
    expect(res.job.status).toBe('Completed')
    expect(res.review_request).toMatchObject({ sent: true, request: { requestNumber: 1, platform: 'wordofmouth', channels: ['sms'] } })
    expect(res.job.review_requested_at).not.toBeNull()
    await settle(res.review_request.request.workflowId)
    const messages = await reviewMessages(id)
    expect(messages).toHaveLength(1)
    expect(messages[0]!.body).toContain(WORD_OF_MOUTH)
    // Asked already: reviews.request does not ask again.
    expect((await tool(client, 'reviews.request', { job_id: id })).sent).toBe(false)
  })

  it('a company without a review link: reviews.request says how to set one; jobs.complete still completes', async () => {
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const otherClient = await connectHttp(app, other.api_key)
    try {
      const otherLead = (await tool(otherClient, 'leads.create', { name: 'Alex Doe', phone: '0412 000 111' })).lead
      const done = await completedJob(otherClient, otherLead.id)
      const error = await toolError(otherClient, 'reviews.request', { job_id: done })
      expect(error.error).toBe('conflict')
      // Over MCP the way to set one is named as the tool (a REST caller is told PATCH /api/v1/settings/reviews).
      expect(error.message).toContain('the reviews.update_settings tool')

      const id = await newJob(otherClient, otherLead.id)
      const res = await tool(otherClient, 'jobs.complete', { job_id: id, request_review: true })
      expect(res.job.status).toBe('Completed')
      expect(res.job.review_requested_at).toBeNull()
      expect(res.review_request).toMatchObject({ sent: false, request: null })
      expect(res.review_request.note).toContain('PATCH /api/v1/settings/reviews')
      expect(await reviewMessages(id)).toHaveLength(0)

      // Cross-tenant: this company's key cannot reach the first company's job.
      const theirs = await completedJob()
      expect((await toolError(otherClient, 'reviews.request', { job_id: theirs })).error).toBe('not_found')
      expect((await toolError(otherClient, 'reviews.request', { job_id: 'not-a-job' })).error).toBe('not_found')
      expect(await app.owner`select 1 from review_requests where job_id = ${theirs}`).toHaveLength(0)
    } finally {
      await otherClient.close()
    }
  })
})
