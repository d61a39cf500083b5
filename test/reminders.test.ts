// Reminders: durable Temporal timers on the real dev server (real seconds), through MCP and REST.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'

let app: TestApp
let temporal: Client
let company: Awaited<ReturnType<typeof onboard>>
let client: McpClient
beforeAll(async () => {
  app = await startTestApp()
  temporal = await connectClient(inject('temporalAddress'), 'default')
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', phone: '0412 345 678' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await temporal?.connection.close()
  await app?.stop()
})

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString()
const patch = (id: string, body: Record<string, unknown>, key = company.api_key) => app.call('PATCH', `/api/v1/reminders/${id}`, { key, body })
const notices = (reminderId: string) =>
  app.owner`select channel, to_address, message_type, body, idempotency_key from communications where idempotency_key like ${`reminder:${reminderId}:%`}`
const firedAt = async (id: string) => (await app.owner`select fired_at from reminders where id = ${id}`)[0]!.fired_at as Date | null
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// These tests mostly wait on their timers, so they wait together: each makes and watches its own
// reminders, and nothing here changes what another test reads.
describe.concurrent('a reminder fires on a durable Temporal timer', () => {
  it('created through MCP for two seconds ahead: fires once, one notice, run found by CompanyId and completed', async ({ expect }) => {
    const lead = (await tool(client, 'leads.create', { name: 'Jordan Lee', email: 'jordan@example.com.au' })).lead
    const dueAt = inSeconds(2)
    const { reminder } = await tool(client, 'reminders.create', { title: 'Call Jordan back', due_at: dueAt, lead_id: lead.id, notify: 'sms' })
    expect(reminder).toMatchObject({ status: 'pending', dueAt: new Date(dueAt).toISOString(), timeZone: 'Australia/Sydney', notify: 'sms', lead: { id: lead.id, name: 'Jordan Lee' }, firedAt: null })
    const workflowId = `reminder:${company.company_id}:${reminder.id}:1`
    expect(reminder.timer).toEqual({ workflowId })

    const result = await temporal.workflow.getHandle(workflowId).result()
    expect(result).toMatchObject({ outcome: 'fired', notices: [{ channel: 'sms', status: 'recorded' }] })
    const fired = await firedAt(reminder.id)
    expect(fired).not.toBeNull()
    expect(fired!.getTime()).toBeGreaterThanOrEqual(Date.parse(dueAt))
    // Once: a later look finds the same fired_at and still exactly one notice.
    await sleep(1500)
    expect((await firedAt(reminder.id))!.getTime()).toBe(fired!.getTime())
    const sent = await notices(reminder.id)
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ channel: 'sms', to_address: '+61412345678', message_type: 'reminder' })
    expect(sent[0]!.body).toContain('Call Jordan back')
    expect(sent[0]!.body).toContain('Lead: Jordan Lee')

    // Visible in the Temporal UI by company, and completed.
    const runs = await waitFor(async () => {
      const found: { id: string; status: string }[] = []
      for await (const wf of temporal.workflow.list({ query: `CompanyId = "${company.company_id}" AND WorkflowType = "reminderTimer"` })) found.push({ id: wf.workflowId, status: wf.status.name })
      return found
    }, (found) => found.some((f) => f.id === workflowId && f.status === 'COMPLETED'), 15_000, 250)
    expect(runs).toContainEqual({ id: workflowId, status: 'COMPLETED' })

    const listed = (await tool(client, 'reminders.list', { lead_id: lead.id })).reminders
    expect(listed.map((r: any) => [r.id, r.status])).toEqual([[reminder.id, 'fired']])
  })

  it('marked done before it is due never fires', async ({ expect }) => {
    const { reminder } = await tool(client, 'reminders.create', { title: 'Order switchboard', due_at: inSeconds(3), notify: 'email' })
    const done = await patch(reminder.id, { done: true })
    expect(done.status).toBe(200)
    expect(done.body.reminder).toMatchObject({ status: 'done', timer: null })
    expect(done.body.reminder.doneAt).not.toBeNull()
    const first = await temporal.workflow.getHandle(`reminder:${company.company_id}:${reminder.id}:1`).result()
    expect(first.outcome).toBe('stood_down')
    await sleep(4000) // past the original due time
    expect(await firedAt(reminder.id)).toBeNull()
    expect(await notices(reminder.id)).toHaveLength(0)
  })

  it('one whose due time is moved fires at the new time, once', async ({ expect }) => {
    const { reminder } = await tool(client, 'reminders.create', { title: 'Chase supplier', due_at: inSeconds(120), notify: 'email' })
    const newDue = inSeconds(2)
    const moved = await patch(reminder.id, { due_at: newDue })
    expect(moved.status).toBe(200)
    expect(moved.body.reminder).toMatchObject({ dueAt: new Date(newDue).toISOString(), status: 'pending', timer: { workflowId: `reminder:${company.company_id}:${reminder.id}:2` } })
    const second = await temporal.workflow.getHandle(`reminder:${company.company_id}:${reminder.id}:2`).result()
    expect(second.outcome).toBe('fired')
    const first = await temporal.workflow.getHandle(`reminder:${company.company_id}:${reminder.id}:1`).result()
    expect(first.outcome).toBe('stood_down')
    const fired = (await firedAt(reminder.id))!
    expect(fired.getTime()).toBeGreaterThanOrEqual(Date.parse(newDue))
    expect(fired.getTime()).toBeLessThan(Date.parse(newDue) + 60_000)
    const sent = await notices(reminder.id)
    expect(sent.map((s) => [s.channel, s.to_address, s.message_type])).toEqual([['email', company.email, 'reminder']])

    // Snoozed after firing: fires again at the new time, with its own notice.
    const snoozed = await patch(reminder.id, { due_at: inSeconds(1) })
    expect(snoozed.body.reminder).toMatchObject({ status: 'pending', firedAt: null })
    expect((await temporal.workflow.getHandle(`reminder:${company.company_id}:${reminder.id}:3`).result()).outcome).toBe('fired')
    expect(await notices(reminder.id)).toHaveLength(2)
  })
})

describe('reminders.create and reminders.list', () => {
  let perth: Awaited<ReturnType<typeof onboard>>
  let perthClient: McpClient
  beforeAll(async () => {
    perth = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', business_name: 'Westside Plumbing' })
    perthClient = await connectHttp(app, perth.api_key)
  })
  afterAll(async () => perthClient?.close())

  it('reads a local time in the company zone: Perth is UTC+8 with no daylight saving', async () => {
    expect((await app.call('GET', '/api/v1/settings/company', { key: perth.api_key })).body.settings).toEqual({ time_zone: 'Australia/Sydney', state: null })
    const set = await app.call('PATCH', '/api/v1/settings/company', { key: perth.api_key, body: { time_zone: 'Australia/Perth' } })
    expect(set.status).toBe(200)
    expect(set.body.settings).toEqual({ time_zone: 'Australia/Perth', state: null })
    expect((await app.call('PATCH', '/api/v1/settings/company', { key: perth.api_key, body: { time_zone: 'Europe/London' } })).body.error).toBe('validation_error')

    // Winter and summer alike: Perth keeps +08:00 (Sydney would be +10 and +11).
    for (const [local, y, mo, d, h, mi] of [['2030-07-15T09:30', 2030, 7, 15, 9, 30], ['2030-01-15T18:05', 2030, 1, 15, 18, 5]] as const) {
      const { reminder } = await tool(perthClient, 'reminders.create', { title: `Local ${local}`, due_at: local })
      expect(reminder.dueAt).toBe(new Date(Date.UTC(y, mo - 1, d, h - 8, mi)).toISOString())
      expect(reminder.dueAtLocal).toBe(`${local}:00`)
      expect(reminder.timeZone).toBe('Australia/Perth')
    }
    // With an offset the instant is as given; local time is shown on Perth's clocks.
    const { reminder } = await tool(perthClient, 'reminders.create', { title: 'Offset', due_at: '2030-07-15T09:30:00+10:00' })
    expect(reminder.dueAt).toBe('2030-07-14T23:30:00.000Z')
    expect(reminder.dueAtLocal).toBe('2030-07-15T07:30:00')
  })

  it('a Sydney local time follows daylight saving (AEDT +11 in January, AEST +10 in July)', async () => {
    const jan = (await tool(client, 'reminders.create', { title: 'Summer', due_at: '2031-01-10T09:00' })).reminder
    const jul = (await tool(client, 'reminders.create', { title: 'Winter', due_at: '2031-07-10T09:00' })).reminder
    expect(jan.dueAt).toBe('2031-01-09T22:00:00.000Z')
    expect(jul.dueAt).toBe('2031-07-09T23:00:00.000Z')
    for (const id of [jan.id, jul.id]) await patch(id, { done: true })
  })

  it('refuses impossible, past and unreachable inputs with a validation_error naming the field', async () => {
    for (const due_at of ['2030-02-30T09:00', '2030-13-01T09:00', '2030-01-01T24:00', '2020-01-01T09:00:00Z', 'tomorrow']) {
      const error = await toolError(perthClient, 'reminders.create', { title: 'x', due_at })
      expect(error.error, due_at).toBe('validation_error')
      expect(JSON.stringify(error.messages), due_at).toContain('due_at')
    }
    // Westside has no mobile on file: an SMS notice cannot reach the owner.
    const sms = await toolError(perthClient, 'reminders.create', { title: 'x', due_at: '2030-07-15T09:30', notify: 'sms' })
    expect(sms.error).toBe('validation_error')
    expect(sms.messages[0]).toMatch(/^notify:/)
  })

  it('lists soonest first with filters and cursor paging; the resource gives the same', async () => {
    const lead = (await tool(perthClient, 'leads.create', { name: 'Pat Nguyen' })).lead
    const job = (await tool(perthClient, 'jobs.create', { lead_id: lead.id, title: 'Hot water' })).job
    const make = async (title: string, due: string, extra: Record<string, unknown> = {}) =>
      (await tool(perthClient, 'reminders.create', { title, due_at: due, ...extra })).reminder.id as string
    const c = await make('C', '2032-03-03T09:00')
    const a = await make('A', '2032-03-01T09:00', { lead_id: lead.id })
    const d = await make('D', '2032-03-04T09:00', { job_id: job.id })
    const b = await make('B', '2032-03-02T09:00', { job_id: job.id })
    await patch(c, { done: true }, perth.api_key)
    const ids = async (args: Record<string, unknown>) => (await tool(perthClient, 'reminders.list', { due_from: '2032-01-01T00:00:00Z', ...args })).reminders.map((r: any) => r.id)

    expect(await ids({})).toEqual([a, b, d])
    expect(await ids({ include_completed: true })).toEqual([a, b, c, d])
    expect(await ids({ completed_only: true })).toEqual([c])
    expect(await ids({ due_to: '2032-03-02T01:00:00Z' })).toEqual([a]) // B is due 01:00 UTC: before, not at
    expect(await ids({ due_to: '2032-03-02T01:00:01Z' })).toEqual([a, b])
    expect(await ids({ lead_id: lead.id })).toEqual([a])
    expect(await ids({ job_id: job.id })).toEqual([b, d])

    const first = await tool(perthClient, 'reminders.list', { due_from: '2032-01-01T00:00:00Z', include_completed: true, limit: 3 })
    expect(first.reminders.map((r: any) => r.id)).toEqual([a, b, c])
    expect(first.total).toBe(4)
    const rest = await tool(perthClient, 'reminders.list', { due_from: '2032-01-01T00:00:00Z', include_completed: true, limit: 3, cursor: first.nextCursor })
    expect(rest.reminders.map((r: any) => r.id)).toEqual([d])
    expect(rest.nextCursor).toBeNull()

    const rest2 = await app.call('GET', '/api/v1/reminders?due_from=2032-01-01T00:00:00Z&limit=2', { key: perth.api_key })
    expect(rest2.body.reminders.map((r: any) => r.id)).toEqual([a, b])
    const resource = await perthClient.readResource({ uri: 'service://reminders' })
    const read = JSON.parse((resource.contents[0] as any).text)
    const fromResource = read.reminders.map((r: any) => r.id)
    expect(fromResource.filter((id: string) => [a, b, c, d].includes(id))).toEqual([a, b, d])
    const dues = read.reminders.map((r: any) => Date.parse(r.dueAt))
    expect(dues).toEqual([...dues].sort((x, y) => x - y))
  })

  it("another company's lead, job and reminder ids give not_found", async () => {
    const lead = (await tool(perthClient, 'leads.create', { name: 'Sam Perth' })).lead
    const job = (await tool(perthClient, 'jobs.create', { lead_id: lead.id, title: 'Tap' })).job
    const theirs = (await tool(perthClient, 'reminders.create', { title: 'Theirs', due_at: '2033-01-01T09:00' })).reminder
    expect((await toolError(client, 'reminders.create', { title: 'x', due_at: '2033-01-01T09:00', lead_id: lead.id })).error).toBe('not_found')
    expect((await toolError(client, 'reminders.create', { title: 'x', due_at: '2033-01-01T09:00', job_id: job.id })).error).toBe('not_found')
    expect((await toolError(client, 'reminders.create', { title: 'x', due_at: '2033-01-01T09:00', lead_id: 'not-an-id' })).error).toBe('not_found')
    const res = await patch(theirs.id, { done: true })
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('not_found')
    expect((await tool(client, 'reminders.list', { lead_id: lead.id })).reminders).toEqual([])
    expect((await app.owner`select done_at from reminders where id = ${theirs.id}`)[0]!.done_at).toBeNull()
  })
})
