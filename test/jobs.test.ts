// Jobs and clients: every move in the spec's job table, each rejected move, profit and ETA.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { JOB_MOVES } from '../src/domains/jobs/transitions.js'
import { JOB_STATUSES } from '../src/domains/jobs/schema.js'
import { connectClient } from '../src/temporal/connection.js'

let app: TestApp
let client: Client
let company: Awaited<ReturnType<typeof onboard>>
let lead: any
beforeAll(async () => {
  app = await startTestApp()
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  lead = (await tool(client, 'leads.create', { name: 'Quinn Harper', phone: '0411 222 333', email: 'quinn@example.com', address: '4 Rose St', suburb: 'Annandale' })).lead
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

const when = '2026-12-01T08:00:00+11:00'

/** A job in the given status, reached by allowed moves. */
async function jobIn(status: string) {
  const job = (await tool(client, 'jobs.create', { lead_id: lead.id, title: `Job to ${status}`, ...(status === 'Quoted' ? {} : { scheduled_date: when }) })).job
  if (status === 'In Progress' || status === 'Completed' || status === 'Cancelled') {
    if (status === 'In Progress') await tool(client, 'jobs.update', { job_id: job.id, status: 'In Progress' })
    if (status === 'Completed') await tool(client, 'jobs.complete', { job_id: job.id })
    if (status === 'Cancelled') await tool(client, 'jobs.update', { job_id: job.id, status: 'Cancelled' })
  }
  return job.id as string
}

describe('jobs.create', () => {
  it('with a date is Scheduled, without is Quoted; address defaults from the lead; events recorded', async () => {
    const scheduled = (await tool(client, 'jobs.create', { lead_id: lead.id, scheduled_date: when, technician: 'Dev' })).job
    expect(scheduled).toMatchObject({ status: 'Scheduled', scheduledDate: '2026-11-30T21:00:00.000Z', technician: 'Dev', address: '4 Rose St, Annandale', lead: { id: lead.id, name: 'Quinn Harper' }, quote: null, invoice: null })
    const quoted = (await tool(client, 'jobs.create', { lead_id: lead.id })).job
    expect(quoted).toMatchObject({ status: 'Quoted', scheduledDate: null, title: 'Job for Quinn Harper' })
    const events = await app.owner`select event_type from event_outbox where entity_id = ${scheduled.id} order by id`
    expect(events.map((e) => e.event_type)).toEqual(['job.created', 'job.scheduled'])
  })

  it('an accepted quote opens its job at once (Quoted, to schedule); jobs.create for it names that job', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Switchboard upgrade', quantity: 1, unitPrice: 1800, unit_cost: 700 }] })
    const accepted = (await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })).quote
    expect(accepted.job_id).toEqual(expect.any(String))
    const job = (await tool(client, 'jobs.list', { lead_id: lead.id })).jobs.find((j: any) => j.id === accepted.job_id)
    expect(job).toMatchObject({ status: 'Quoted', scheduledDate: null, title: 'Switchboard upgrade', amount: 1980, quoteId: quote.id, quote: { quoteNumber: quote.quoteNumber, status: 'Accepted', total: 1980 } })
    const again = await toolError(client, 'jobs.create', { lead_id: lead.id, quote_id: quote.id })
    expect(again).toMatchObject({ error: 'conflict', job_id: accepted.job_id, next_step: 'jobs.update' })
    expect(again.message).toContain(`jobs.update job_id ${accepted.job_id}`)
    const events = await app.owner`select event_type from event_outbox where entity_id = ${accepted.job_id} order by id`
    expect(events.map((e) => e.event_type)).toEqual(['job.created'])
  })

  it('with create_job_on_acceptance off, an accepted quote waits and jobs.create makes its job in one call, once', async () => {
    await tool(client, 'company.update_profile', { create_job_on_acceptance: false })
    try {
      const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Switchboard upgrade', quantity: 1, unitPrice: 1800 }] })
      expect((await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })).quote.job_id).toBeNull()
      const job = (await tool(client, 'jobs.create', { lead_id: lead.id, quote_id: quote.id })).job
      expect(job).toMatchObject({ title: 'Switchboard upgrade', amount: 1980, quoteId: quote.id })
      expect(await toolError(client, 'jobs.create', { lead_id: lead.id, quote_id: quote.id })).toMatchObject({ error: 'conflict', job_id: job.id })
    } finally {
      await tool(client, 'company.update_profile', { create_job_on_acceptance: true })
    }
  })

  it('refuses a declined quote, another lead\'s quote and an unknown lead', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'x', quantity: 1, unitPrice: 1 }] })
    await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Declined' })
    expect(await toolError(client, 'jobs.create', { lead_id: lead.id, quote_id: quote.id })).toMatchObject({ error: 'conflict', quote_status: 'Declined' })
    const other = (await tool(client, 'leads.create', { name: 'Other Lead' })).lead
    const { quote: q2 } = await tool(client, 'quotes.create', { lead_id: other.id, line_items: [{ description: 'x', quantity: 1, unitPrice: 1 }] })
    expect((await toolError(client, 'jobs.create', { lead_id: lead.id, quote_id: q2.id })).error).toBe('not_found')
    expect((await toolError(client, 'jobs.create', { lead_id: '00000000-0000-4000-8000-000000000000' })).error).toBe('not_found')
  })
})

describe('job status moves', () => {
  for (const from of JOB_STATUSES) {
    for (const to of JOB_STATUSES) {
      const allowed = JOB_MOVES[from].includes(to)
      if (from === to && to !== 'Scheduled') continue
      it(`${from} -> ${to} is ${allowed ? 'allowed' : 'rejected'}`, async () => {
        const id = await jobIn(from)
        const args: Record<string, unknown> = { job_id: id, status: to }
        if (to === 'Scheduled') args.scheduled_date = '2026-12-03T09:00:00+11:00'
        if (allowed) {
          const job = (await tool(client, 'jobs.update', args)).job
          expect(job.status).toBe(to)
          if (to === 'Completed') expect(job.completed_at).not.toBeNull()
        } else {
          const err = await toolError(client, 'jobs.update', args)
          expect(err).toMatchObject({ error: 'conflict', current_status: from })
          expect(err.message).toMatch(from === 'Completed' || from === 'Cancelled' ? /final/ : /cannot move/)
        }
      })
    }
  }

  it('setting a date on a Quoted job schedules it; a Scheduled job needs a date and keeps one', async () => {
    const id = await jobIn('Quoted')
    expect((await toolError(client, 'jobs.update', { job_id: id, status: 'Scheduled' })).messages).toEqual(['scheduled_date: a Scheduled job needs a date'])
    expect((await tool(client, 'jobs.update', { job_id: id, scheduled_date: when })).job.status).toBe('Scheduled')
    expect((await toolError(client, 'jobs.update', { job_id: id, scheduled_date: null })).messages).toEqual(['scheduled_date: a Scheduled job needs a date'])
    const moved = (await tool(client, 'jobs.update', { job_id: id, scheduled_date: '2026-12-05T07:30:00+11:00' })).job
    expect(moved).toMatchObject({ status: 'Scheduled', scheduledDate: '2026-12-04T20:30:00.000Z' })
    const events = await app.owner`select event_type from event_outbox where entity_id = ${id} and event_type = 'job.scheduled'`
    expect(events).toHaveLength(2)
  })

  it('nothing leaves Cancelled; a final job still takes notes', async () => {
    const id = await jobIn('Cancelled')
    for (const status of ['Scheduled', 'In Progress', 'Completed', 'Quoted']) {
      expect((await toolError(client, 'jobs.update', { job_id: id, status, scheduled_date: when })).error).toBe('conflict')
    }
    expect((await toolError(client, 'jobs.complete', { job_id: id })).error).toBe('conflict')
    expect((await tool(client, 'jobs.update', { job_id: id, notes: 'Client moved interstate' })).job.notes).toBe('Client moved interstate')
  })
})

describe('jobs.complete', () => {
  it('completes with a rating and notes; a review request without a review link sends nothing and says why; job.completed event', async () => {
    const id = await jobIn('In Progress')
    const res = await tool(client, 'jobs.complete', { job_id: id, satisfaction_rating: 5, request_review: true, completion_notes: 'Replaced RCD', amount: 450 })
    expect(res.job).toMatchObject({ status: 'Completed', satisfaction_rating: 5, amount: 450, notes: 'Replaced RCD' })
    // Sending review requests is covered in test/reviews.test.ts; this company has no review link yet.
    expect(res.job.review_requested_at).toBeNull()
    expect(res.review_request).toMatchObject({ sent: false, request: null })
    expect(res.review_request.note).toContain('PATCH /api/v1/settings/reviews')
    expect((await toolError(client, 'jobs.complete', { job_id: id })).error).toBe('conflict')
    expect((await toolError(client, 'jobs.complete', { job_id: id, satisfaction_rating: 6 })).error).toBe('validation_error')
    const events = await app.owner`select event_type from event_outbox where entity_id = ${id} and event_type = 'job.completed'`
    expect(events).toHaveLength(1)
  })
})

describe('jobs.send_eta and jobs.profit_summary', () => {
  it('sends an on-my-way SMS through the providers', async () => {
    const id = await jobIn('Scheduled')
    await tool(client, 'jobs.update', { job_id: id, technician: 'Sam' })
    const res = await tool(client, 'jobs.send_eta', { job_id: id, eta_minutes: 25, channel: 'both' })
    expect(res.delivery.channels).toEqual(['sms', 'email'])
    const temporal = await connectClient(inject('temporalAddress'), 'default')
    try {
      await temporal.workflow.getHandle(res.delivery.workflow_id).result()
    } finally {
      await temporal.connection.close()
    }
    const [sms] = await app.owner`select body, status, provider from communications where job_id = ${id} and channel = 'sms'`
    expect(sms).toMatchObject({ status: 'recorded', provider: 'local-outbox', body: 'Hi Quinn, Sam from Sparky Bros Electrical is on the way and should arrive in about 25 minutes.' })
    const done = await jobIn('Completed')
    expect((await toolError(client, 'jobs.send_eta', { job_id: done })).error).toBe('conflict')
  })

  it('profit = amount - (quote line unit costs + recorded costs)', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [
      { description: 'Downlights', quantity: 10, unitPrice: 85, unit_cost: 32.5 },
      { description: 'Labour', quantity: 4, unitPrice: 110 },
    ] })
    const accepted = (await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })).quote
    const job = (await tool(client, 'jobs.update', { job_id: accepted.job_id, scheduled_date: when })).job
    await tool(client, 'jobs.update', { job_id: job.id, add_costs: [{ description: 'Apprentice wages', amount: 160 }, { description: 'Fuel', amount: 22.4 }] })
    const summary = await tool(client, 'jobs.profit_summary', { job_id: job.id })
    expect(summary.jobs[0]).toMatchObject({ revenue: 1419, costs: { materials: 325, recorded: 182.4, total: 507.4 }, margin: 911.6, marginPercent: 64.2 })
    expect(summary.totals).toMatchObject({ revenue: 1419, costs: 507.4, margin: 911.6 })
    await tool(client, 'jobs.complete', { job_id: job.id })
    const period = await tool(client, 'jobs.profit_summary', {})
    expect(period.jobs.map((j: any) => j.jobId)).toContain(job.id)
    expect(period.period.to).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })
})

describe('GET /api/v1/jobs and clients', () => {
  it('GET /jobs takes status, limit and offset', async () => {
    const res = await app.call('GET', '/api/v1/jobs?status=Completed&limit=2', { key: company.api_key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ limit: 2, offset: 0 })
    expect(res.body.jobs.every((j: any) => j.status === 'Completed')).toBe(true)
    expect((await app.call('GET', '/api/v1/jobs?status=In%20Progress', { key: company.api_key })).status).toBe(200)
    expect((await app.call('GET', '/api/v1/jobs?status=Quoted', { key: company.api_key })).status).toBe(200)
  })

  it('clients.list (MCP) = leads with any job; GET /clients (REST) = leads with a completed job', async () => {
    const onlyScheduled = (await tool(client, 'leads.create', { name: 'Scheduled Only' })).lead
    await tool(client, 'jobs.create', { lead_id: onlyScheduled.id, scheduled_date: when })
    const noJobs = (await tool(client, 'leads.create', { name: 'No Jobs Yet' })).lead
    const mcp = (await tool(client, 'clients.list', { limit: 100 })).clients
    expect(mcp.map((c: any) => c.id)).toEqual(expect.arrayContaining([lead.id, onlyScheduled.id]))
    expect(mcp.map((c: any) => c.id)).not.toContain(noJobs.id)
    const quinn = mcp.find((c: any) => c.id === lead.id)
    expect(quinn.jobCount).toBeGreaterThan(3)
    expect(quinn.quoteCount).toBeGreaterThan(1)
    expect(quinn.totalRevenue).toBeGreaterThan(0)
    const rest = await app.call('GET', '/api/v1/clients', { key: company.api_key })
    expect(rest.body).toMatchObject({ limit: 50, offset: 0 })
    expect(rest.body.clients.map((c: any) => c.id)).toContain(lead.id)
    expect(rest.body.clients.map((c: any) => c.id)).not.toContain(onlyScheduled.id)
    const resource = await client.readResource({ uri: 'service://clients' })
    expect(JSON.parse((resource.contents[0] as any).text).clients.map((c: any) => c.id)).toContain(onlyScheduled.id)
    for (const uri of ['service://quotes', 'service://jobs']) {
      const r = await client.readResource({ uri })
      expect(JSON.parse((r.contents[0] as any).text).total).toBeGreaterThan(0)
    }
  })

  it('another company\'s job ids give not_found', async () => {
    const id = await jobIn('Scheduled')
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const otherClient = await connectHttp(app, other.api_key)
    try {
      for (const [name, args] of [['jobs.update', { job_id: id, notes: 'x' }], ['jobs.complete', { job_id: id }], ['jobs.send_eta', { job_id: id }], ['jobs.profit_summary', { job_id: id }]] as const) {
        expect((await toolError(otherClient, name, args)).error, name).toBe('not_found')
      }
      expect((await tool(otherClient, 'jobs.list', {})).total).toBe(0)
      expect((await tool(otherClient, 'clients.list', {})).total).toBe(0)
    } finally {
      await otherClient.close()
    }
  })
})
