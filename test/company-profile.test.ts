// Onboarding asks for what later steps need (state, time zone, review link), and the company has one
// profile an agent reads and corrects through MCP (company.profile, company.update_profile) or REST
// (GET/PATCH /api/v1/company), with one state shared by scheduling and invoicing.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, uniqueEmail, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { connectClient } from '../src/temporal/connection.js'
import { dailySummaryWorkflowId } from '../src/domains/automations/daily-summary/workflows/daily-summary.js'

let app: TestApp
let temporal: Client
beforeAll(async () => {
  app = await startTestApp()
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  await temporal?.connection.close()
  await app?.stop()
})

const REVIEW = 'https://g.page/r/harbour-city-plumbing/review'

// The ATO's example ABN (abr.business.gov.au, "ABN format"); changing its last digit breaks the
// modulus-89 check: 5+...+6 weighted sums to 89*k only for the real one.
const VALID_ABN = '51 824 753 556'
const BAD_CHECKSUM_ABN = '51 824 753 557'

async function signUp(extra: Record<string, unknown>) {
  const company = await onboard(app, { business_name: 'Harbour City Plumbing', plan: 'business', stripe_payment_method_id: 'pm_card_visa', ...extra })
  return { company, client: await connectHttp(app, company.api_key) }
}

describe('onboarding asks for what later steps need', () => {
  let company: Awaited<ReturnType<typeof onboard>>
  let client: McpClient
  beforeAll(async () => {
    ({ company, client } = await signUp({ abn: VALID_ABN, phone: '0412 345 678', contact_name: 'Dana Nguyen', state: 'WA', time_zone: 'Australia/Perth', review_link: REVIEW }))
  })
  afterAll(() => client?.close())

  it('stores state, time zone and review link; company.profile and GET /company read them back', async () => {
    const profile = await tool(client, 'company.profile')
    expect(profile.company).toEqual({
      id: company.company_id, business_name: 'Harbour City Plumbing', contact_name: 'Dana Nguyen', contact_email: company.email,
      phone: '+61412345678', abn: '51824753556', abn_display: '51 824 753 556', trade_type: null, state: 'WA', time_zone: 'Australia/Perth',
      create_job_on_acceptance: true, dispatch_requires_approval: false, created_at: expect.any(String),
    })
    expect(profile.available_states).toEqual(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'])
    expect(profile.available_time_zones).toContain('Australia/Perth')
    const rest = await app.call('GET', '/api/v1/company', { key: company.api_key })
    expect(rest.status).toBe(200)
    expect(rest.body).toEqual(profile)
    // The same company settings scheduling reads.
    expect((await app.call('GET', '/api/v1/settings/company', { key: company.api_key })).body.settings).toEqual({ time_zone: 'Australia/Perth', state: 'WA' })
    const platforms = await tool(client, 'reviews.platforms')
    expect(platforms.default_platform).toBe('google')
    expect(platforms.platforms.filter((p: any) => p.configured)).toEqual([{ platform: 'google', name: 'Google Business Profile', url: REVIEW, configured: true, is_default: true }])
  })

  it('reviews.request sends the review link given at sign-up, with no settings call in between', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Quinn Harper', phone: '0411 222 333' })
    const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Hot water service' })
    await tool(client, 'jobs.complete', { job_id: job.id })
    const asked = await tool(client, 'reviews.request', { job_id: job.id })
    expect(asked).toMatchObject({ sent: true, request: { platform: 'google', url: REVIEW, channels: ['sms'] } })
    await temporal.workflow.getHandle(asked.request.workflowId).result()
    const [sms] = await app.owner<{ body: string }[]>`select body from communications where job_id = ${job.id} and message_type = 'review_request'`
    expect(sms!.body).toContain(REVIEW)
  })

  it('workflows.schedule_job uses the state given at sign-up instead of refusing', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Robin Ellis', phone: '0411 222 444' })
    const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Blocked drain' })
    const out = await tool(client, 'workflows.schedule_job', { job_id: job.id })
    expect(out).toMatchObject({ job_id: job.id, state: 'WA' })
    // Local to Perth, as the company's time zone says: 08:00 is 00:00 UTC.
    expect(out.scheduled_date).toMatch(/T00:00:00(\.000)?Z$|T08:00:00(\.000)?\+08:00$/)
  })

  it('tells the platform from the address, takes review_platform for any other, and refuses what PATCH /settings/reviews refuses', async () => {
    const wom = 'https://www.wordofmouth.com.au/reviews/harbour-city'
    const b = await signUp({ review_link: wom })
    expect((await tool(b.client, 'reviews.platforms')).default_platform).toBe('wordofmouth')
    await b.client.close()
    const own = await signUp({ review_link: 'https://www.truelocal.com.au/business/harbour', review_platform: 'truelocal' })
    expect((await tool(own.client, 'reviews.platforms')).platforms.find((p: any) => p.is_default)).toMatchObject({ platform: 'truelocal', url: 'https://www.truelocal.com.au/business/harbour' })
    await own.client.close()
    // No state or time zone given: the state stays unset and the zone is Sydney, as before.
    expect((await app.call('GET', '/api/v1/company', { key: own.company.api_key })).body.company).toMatchObject({ state: null, time_zone: 'Australia/Sydney' })

    const refused = async (body: Record<string, unknown>) => {
      const res = await app.call('POST', '/api/v1/onboard', { body: { business_name: 'Refused Pty Ltd', email: uniqueEmail(), plan: 'free', ...body } })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe('validation_error')
      return res.body.messages as string[]
    }
    // A link on no platform's site, or on another platform's than the one named, is refused.
    expect(await refused({ review_link: 'https://reviews.example.com.au/x' })).toEqual([expect.stringMatching(/^review_link: must be a page on a review platform's own site \(google: g\.page/)])
    expect(await refused({ review_link: 'https://reviews.example.com.au/x', review_platform: 'truelocal' })).toEqual([expect.stringMatching(/^review_link: must be a page on a review platform's own site/)])
    expect(await refused({ review_link: 'https://g.page/r/harbour', review_platform: 'facebook' })).toEqual([expect.stringMatching(/^review_platform: review_link is on google's site, not facebook's/)])
    expect(await refused({ review_link: 'https://localhost/review' })).toEqual([expect.stringMatching(/^review_link: must be an https URL on a public host/)])
    expect((await refused({ review_link: 'http://g.page/r/x' }))[0]).toMatch(/^review_link: /)
    expect(await refused({ review_platform: 'google' })).toEqual([expect.stringMatching(/^review_platform: give review_link as well/)])
    expect((await refused({ state: 'XX' }))[0]).toMatch(/^state: /)
    expect((await refused({ time_zone: 'Europe/London' }))[0]).toMatch(/^time_zone: /)
    expect((await refused({ state: 'XX', abn: BAD_CHECKSUM_ABN }))[0]).toMatch(/^state: /)
  })
})

describe('company.update_profile', () => {
  let company: Awaited<ReturnType<typeof onboard>>
  let client: McpClient
  beforeAll(async () => {
    ({ company, client } = await signUp({}))
  })
  afterAll(() => client?.close())

  it('changes the state, and invoicing settings show the same one; invoicing changing it changes the company', async () => {
    const updated = await tool(client, 'company.update_profile', { state: 'QLD' })
    expect(updated.company.state).toBe('QLD')
    const invoicing = await app.call('GET', '/api/v1/settings/invoicing', { key: company.api_key })
    expect(invoicing.status).toBe(200)
    expect(invoicing.body.settings.state).toBe('QLD')

    const set = await app.call('PATCH', '/api/v1/settings/invoicing', { key: company.api_key, body: { state: 'VIC', payment_terms_days: 7 } })
    expect(set.status).toBe(200)
    expect(set.body.settings).toMatchObject({ state: 'VIC', payment_terms_days: 7 })
    expect((await tool(client, 'company.profile')).company.state).toBe('VIC')
    expect((await app.call('GET', '/api/v1/settings/company', { key: company.api_key })).body.settings.state).toBe('VIC')
    // Changing another invoicing setting leaves the state alone; null clears it everywhere.
    expect((await app.call('PATCH', '/api/v1/settings/invoicing', { key: company.api_key, body: { payment_terms_days: 21 } })).body.settings.state).toBe('VIC')
    expect((await app.call('PATCH', '/api/v1/company', { key: company.api_key, body: { state: null } })).body.company.state).toBeNull()
    expect((await app.call('GET', '/api/v1/settings/invoicing', { key: company.api_key })).body.settings).toMatchObject({ state: null, payment_terms_days: 21 })
  })

  it('changes name, contact, phone and ABN; only what is given changes', async () => {
    const before = (await tool(client, 'company.profile')).company
    const out = await tool(client, 'company.update_profile', { business_name: '  Harbour City Plumbing & Gas ', contact_email: 'office@harbourcity.example.com.au', phone: '02 9876 5432', abn: '51824753556', trade_type: 'plumber' })
    expect(out.company).toEqual({
      ...before, business_name: 'Harbour City Plumbing & Gas', contact_email: 'office@harbourcity.example.com.au', phone: '+61298765432',
      abn: '51824753556', abn_display: '51 824 753 556', trade_type: 'plumber',
    })
    // The owner's login is not the contact address.
    const [owner] = await app.owner<{ email: string }[]>`select email from users where company_id = ${company.company_id} and role = 'owner'`
    expect(owner!.email).toBe(company.email)
    const cleared = await app.call('PATCH', '/api/v1/company', { key: company.api_key, body: { abn: null, phone: null } })
    expect(cleared.status).toBe(200)
    expect(cleared.body.company).toMatchObject({ abn: null, abn_display: null, phone: null, business_name: 'Harbour City Plumbing & Gas' })
  })

  it('refuses an invalid ABN and an unknown state with validation_error naming the field, and changes nothing', async () => {
    const before = (await tool(client, 'company.profile')).company
    const abn = await toolError(client, 'company.update_profile', { abn: BAD_CHECKSUM_ABN, business_name: 'Changed Name' })
    expect(abn.error).toBe('validation_error')
    expect(abn.messages).toEqual([expect.stringMatching(/^abn: '51 824 753 557' is not a valid Australian Business Number/)])
    expect((await toolError(client, 'company.update_profile', { abn: '1234567890' })).messages[0]).toMatch(/^abn: /)
    const state = await toolError(client, 'company.update_profile', { state: 'XX' })
    expect(state.error).toBe('validation_error')
    for (const m of state.messages) expect(m).toMatch(/^state: /)
    const rest = await app.call('PATCH', '/api/v1/company', { key: company.api_key, body: { state: 'Queensland' } })
    expect(rest.status).toBe(400)
    expect(rest.body.error).toBe('validation_error')
    expect(rest.body.messages).toContain('state: must be equal to one of the allowed values')
    for (const m of rest.body.messages) expect(m).toMatch(/^state: /)
    expect((await app.call('PATCH', '/api/v1/company', { key: company.api_key, body: { phone: 'call me' } })).body.messages).toEqual([expect.stringMatching(/^phone: /)])
    expect((await app.call('PATCH', '/api/v1/company', { key: company.api_key, body: {} })).body.error).toBe('validation_error')
    expect((await app.call('PATCH', '/api/v1/company', { key: company.api_key, body: { plan: 'free' } })).body.messages).toEqual(['plan: is not a known field'])
    expect((await tool(client, 'company.profile')).company).toEqual(before)
  })

  it('a time zone change moves the daily summary schedule, as PATCH /settings/company does', async () => {
    await tool(client, 'workflows.toggle', { workflow_id: 'daily_summary', enabled: true, settings: { time: '06:30' } })
    const handle = temporal.schedule.getHandle(dailySummaryWorkflowId({ companyId: company.company_id }))
    expect((await handle.describe()).spec.timezone).toBe('Australia/Sydney')
    const moved = await tool(client, 'company.update_profile', { time_zone: 'Australia/Darwin' })
    expect(moved.company.time_zone).toBe('Australia/Darwin')
    const spec = (await handle.describe()).spec
    expect(spec.timezone).toBe('Australia/Darwin')
    expect(spec.calendars![0]).toMatchObject({ hour: [{ start: 6, end: 6, step: 1 }], minute: [{ start: 30, end: 30, step: 1 }] })
    expect((await app.call('GET', '/api/v1/settings/company', { key: company.api_key })).body.settings.time_zone).toBe('Australia/Darwin')
    await tool(client, 'workflows.toggle', { workflow_id: 'daily_summary', enabled: false })
  })

  it('needs an admin key to change, a read key to read', async () => {
    const created = await app.call('POST', '/api/v1/keys', { key: company.api_key, body: { name: 'reader', permission: 'read', scopes: ['leads'] } })
    expect(created.status).toBe(201)
    const reader = created.body.api_key
    expect((await app.call('GET', '/api/v1/company', { key: reader })).status).toBe(200)
    const denied = await app.call('PATCH', '/api/v1/company', { key: reader, body: { state: 'NSW' } })
    expect(denied.status).toBe(403)
  })
})
