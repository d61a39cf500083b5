// A job completed before its booked day: accepted, the result says so, and the dashboard shows it
// on the day it was done (the headline's completed jobs), not among the booked day's jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

const ZONE = 'Australia/Perth'
let app: TestApp
let client: Client
let companyId: string
beforeAll(async () => {
  app = await startTestApp()
  const company = await onboard(app)
  companyId = company.company_id
  await app.owner`update companies set time_zone = ${ZONE} where id = ${companyId}`
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

/** Noon in Perth (UTC+8, no daylight saving) `days` local days from today, and that local date. */
function perthNoon(days: number) {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date())
  const date = new Date(`${today}T12:00:00+08:00`)
  date.setUTCDate(date.getUTCDate() + days)
  return { at: date.toISOString().replace('.000Z', '+00:00'), local: new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(date), today }
}

async function scheduledJob(name: string, days: number) {
  const { lead } = await tool(client, 'leads.create', { name })
  const when = perthNoon(days)
  const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: `Job for ${name}`, amount: 330, scheduled_date: when.at })
  return { job, when }
}

describe('completing a job before its scheduled date', () => {
  it('is accepted, and the result warns with both local dates', async () => {
    const { job, when } = await scheduledJob('Early Bird', 3)
    const done = await tool(client, 'jobs.complete', { job_id: job.id })
    expect(done.job.status).toBe('Completed')
    expect(done.warnings).toHaveLength(1)
    expect(done.warnings[0]).toContain(when.local)
    expect(done.warnings[0]).toContain(`Completed on ${when.today}`)
  })

  it('on or after the booked day there is no warning', async () => {
    const { job } = await scheduledJob('On Time', 0)
    expect((await tool(client, 'jobs.complete', { job_id: job.id })).warnings).toEqual([])
    const { lead } = await tool(client, 'leads.create', { name: 'Unbooked' })
    const { job: unbooked } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'No date', amount: 110 })
    expect((await tool(client, 'jobs.complete', { job_id: unbooked.id })).warnings).toEqual([])
  })

  it("the dashboard lists it under no booked day once done, but still lists tomorrow's open jobs and counts it as completed", async () => {
    const before = await tool(client, 'analytics.dashboard', {})
    const doneEarly = await scheduledJob('Done Early', 1)
    const stillOpen = await scheduledJob('Still Open', 1)
    const listed = await tool(client, 'analytics.dashboard', {})
    expect(listed.tomorrow).toBe(doneEarly.when.local)
    expect(listed.jobs_tomorrow.map((j: { id: string }) => j.id)).toEqual(expect.arrayContaining([doneEarly.job.id, stillOpen.job.id]))
    await tool(client, 'jobs.complete', { job_id: doneEarly.job.id })
    const after = await tool(client, 'analytics.dashboard', {})
    const tomorrowIds = after.jobs_tomorrow.map((j: { id: string }) => j.id)
    expect(tomorrowIds).toContain(stillOpen.job.id)
    expect(tomorrowIds).not.toContain(doneEarly.job.id)
    expect(after.headline.jobs_completed.current).toBe(before.headline.jobs_completed.current + 1)
  })
})
