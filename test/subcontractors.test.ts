// Subcontractors (issue 23, item 1) through the MCP SDK client and REST, on real Postgres and
// Temporal: register, every allowed and refused status move, list filters and paging, expiry
// reminders (once per document and date), the subcontractor.verified webhook, and tenancy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { header, startReceiver, type Receiver } from './helpers/receiver.js'
import { waitFor } from './helpers/wait.js'

let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let clientA: McpClient
let clientB: McpClient
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
  // Private targets on: the webhook receiver is this process on loopback.
  app = await startTestApp({ config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_RETRY_SCHEDULE_MS: '0,200,400' } })
  a = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  clientA = await connectHttp(app, a.api_key)
  clientB = await connectHttp(app, b.api_key)
})
afterAll(async () => {
  await clientA?.close()
  await clientB?.close()
  await app?.stop()
  await receiver?.close()
})

// Dates as the company (Australia/Sydney, the onboarding default) reads them.
const sydneyDate = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(d)
const daysFromToday = (n: number) => sydneyDate(new Date(Date.now() + n * 86_400_000))
const register = (client: McpClient, args: Record<string, unknown> = {}) =>
  tool(client, 'subcontractors.register', { name: 'Sam Sparks', trades: ['Electrical'], ...args })
const verify = (client: McpClient, id: string, action?: string, reason?: string) =>
  tool(client, 'subcontractors.verify', { subcontractor_id: id, ...(action ? { action } : {}), ...(reason ? { reason } : {}) })
const reminderRows = (subId: string) =>
  app.owner`select e.document, e.expires_on::text as expires_on, r.title, r.due_at from subcontractor_expiry_reminders e
    join reminders r on r.id = e.reminder_id where e.subcontractor_id = ${subId} order by e.document, e.expires_on`

describe('subcontractors.register', () => {
  it('registers as pending, normalises trades, suburbs, ABN and phone, and says the details were not checked against a register', async () => {
    const { subcontractor: s, expiry_reminders } = await register(clientA, {
      trades: ['Electrical', ' electrical ', 'Air Conditioning'], phone: '0412 345 678', email: 'sam@example.com.au', abn: '51 824 753 556',
      licence_number: '123456C', licence_class: 'Electrician (unrestricted)', licence_state: 'NSW', insurer: 'QBE', policy_number: 'PL-1',
      service_suburbs: ['Parramatta', '2150'], service_radius_km: 25,
    })
    expect(s).toMatchObject({
      status: 'pending', trades: ['electrical', 'air conditioning'], phone: '+61412345678', abn: '51824753556',
      service_suburbs: ['parramatta', '2150'], service_radius_km: 25, available: true, verified_at: null,
      register_check: { checked: false, outcome: 'not_checked', source: 'none' },
    })
    expect(s.register_check.detail).toContain('not checked against a register')
    expect(expiry_reminders).toEqual([])
  })

  it('refuses an impossible expiry date and a non-mobile phone, naming the field', async () => {
    expect((await toolError(clientA, 'subcontractors.register', { name: 'X', trades: ['plumbing'], licence_expiry: '2027-02-30' })).messages.join(' ')).toContain('licence_expiry')
    expect((await toolError(clientA, 'subcontractors.register', { name: 'X', trades: ['plumbing'], phone: 'not a phone' })).error).toBe('validation_error')
  })

  it('over REST: POST /subcontractors answers 201 and GET lists it', async () => {
    const res = await app.call('POST', '/api/v1/subcontractors', { key: a.api_key, body: { name: 'Rest Roofing', trades: ['roofing'] } })
    expect(res.status).toBe(201)
    const list = await app.call('GET', '/api/v1/subcontractors?trade=Roofing', { key: a.api_key })
    expect(list.status).toBe(200)
    expect(list.body.subcontractors.map((s: { id: string }) => s.id)).toContain(res.body.subcontractor.id)
    const moved = await app.call('POST', `/api/v1/subcontractors/${res.body.subcontractor.id}/verify`, { key: a.api_key, body: { action: 'verify' } })
    expect(moved.status).toBe(200)
    expect(moved.body.subcontractor.status).toBe('verified')
  })
})

describe('subcontractors.verify: the status moves', () => {
  // Expected from the table in src/domains/subcontractors/status.ts (and docs/decisions.md).
  const target = { verify: 'verified', activate: 'active', suspend: 'suspended', deactivate: 'inactive' } as const
  const allowed: Record<string, string[]> = {
    pending: ['verify', 'deactivate'],
    verified: ['verify', 'activate', 'suspend', 'deactivate'],
    active: ['verify', 'suspend', 'deactivate'],
    suspended: ['verify', 'deactivate'],
    inactive: ['verify'],
  }
  // The shortest path of actions from pending to each status.
  const pathTo: Record<string, string[]> = {
    pending: [], verified: ['verify'], active: ['verify', 'activate'], suspended: ['verify', 'suspend'], inactive: ['deactivate'],
  }
  async function subIn(status: string): Promise<string> {
    const { subcontractor } = await register(clientA, { name: `In ${status}` })
    for (const action of pathTo[status]!) await verify(clientA, subcontractor.id, action)
    return subcontractor.id
  }

  for (const [from, actions] of Object.entries(allowed)) {
    for (const action of Object.keys(target) as (keyof typeof target)[]) {
      const ok = actions.includes(action)
      it(`${from} + ${action}: ${ok ? `moves to ${target[action]}` : 'refused naming the allowed actions'}`, async () => {
        const id = await subIn(from)
        if (ok) {
          const out = await verify(clientA, id, action, `because ${action}`)
          expect(out.subcontractor.status).toBe(target[action])
          expect(out.verification).toMatchObject({ action, from_status: from, to_status: target[action], reason: `because ${action}` })
          expect(out.verification.by_key).toBeTruthy()
          const [row] = await app.owner`select count(*)::int as n from subcontractor_verifications where subcontractor_id = ${id} and action = ${action} and reason = ${`because ${action}`}`
          expect(row!.n).toBe(1)
          if (action === 'verify') {
            expect(out.verification.register_check).toMatchObject({ checked: false, outcome: 'not_checked' })
            expect(out.subcontractor.verified_at).toBe(out.verification.at)
          } else {
            expect(out.verification.register_check).toBeNull()
          }
        } else {
          const err = await toolError(clientA, 'subcontractors.verify', { subcontractor_id: id, action })
          expect(err.error).toBe('conflict')
          expect(err.message).toContain(`From ${from} the allowed actions are: ${actions.join(', ')}`)
          const [row] = await app.owner`select status from subcontractors where id = ${id}`
          expect(row!.status).toBe(from)
        }
      })
    }
  }

  it('action defaults to verify', async () => {
    const { subcontractor } = await register(clientA)
    expect((await verify(clientA, subcontractor.id)).verification.action).toBe('verify')
  })
})

describe('subcontractors.list', () => {
  it('filters by trade, status, availability and area (any capitalisation), and pages by cursor', async () => {
    const trade = `tiling-${Date.now()}`
    const made: string[] = []
    for (let i = 0; i < 5; i++) {
      const { subcontractor } = await register(clientA, { name: `Tiler ${i}`, trades: [trade.toUpperCase()], service_suburbs: i % 2 ? ['Penrith'] : ['Manly'], available: i !== 4 })
      made.push(subcontractor.id)
    }
    await verify(clientA, made[0]!)
    const ids = async (args: Record<string, unknown>) => (await tool(clientA, 'subcontractors.list', { trade, ...args })).subcontractors.map((s: { id: string }) => s.id)
    expect(await ids({})).toEqual([...made].reverse())
    expect(await ids({ status: 'verified' })).toEqual([made[0]])
    expect(await ids({ status: 'pending' })).toEqual([made[4], made[3], made[2], made[1]])
    expect(await ids({ area: 'PENRITH' })).toEqual([made[3], made[1]])
    expect(await ids({ available: false })).toEqual([made[4]])
    expect(await ids({ area: 'manly', available: true })).toEqual([made[2], made[0]])

    const first = await tool(clientA, 'subcontractors.list', { trade, limit: 2 })
    expect(first).toMatchObject({ total: 5, limit: 2 })
    const second = await tool(clientA, 'subcontractors.list', { trade, limit: 2, cursor: first.nextCursor })
    const third = await tool(clientA, 'subcontractors.list', { trade, limit: 2, cursor: second.nextCursor })
    expect([...first.subcontractors, ...second.subcontractors, ...third.subcontractors].map((s: { id: string }) => s.id)).toEqual([...made].reverse())
    expect(third.nextCursor).toBeNull()
  })
})

describe('expiry reminders', () => {
  it('a licence expiring within 30 days raises a reminder due now; insurance further off, one due 09:00 company time 30 days before; once per document and date', async () => {
    const soon = daysFromToday(10)
    const later = daysFromToday(90)
    const before = Date.now()
    const { subcontractor, expiry_reminders } = await register(clientA, { name: 'Expiring Ed', licence_expiry: soon, insurance_expiry: later })
    expect(expiry_reminders.map((r: { document: string }) => r.document)).toEqual(['licence', 'insurance'])
    const [licence, insurance] = expiry_reminders
    expect(licence.expires_on).toBe(soon)
    expect(Date.parse(licence.due_at)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(licence.due_at)).toBeLessThanOrEqual(Date.now())
    expect(insurance.expires_on).toBe(later)
    const due = new Date(insurance.due_at)
    expect(sydneyDate(due)).toBe(daysFromToday(60))
    expect(new Intl.DateTimeFormat('en-AU', { timeZone: 'Australia/Sydney', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(due)).toBe('09:00')

    const rows = await reminderRows(subcontractor.id)
    expect(rows).toHaveLength(2)
    expect(rows.find((r) => r.document === 'licence')!.title).toBe(`Expiring Ed: licence expires ${soon}`)
    // The owner sees it in reminders.list.
    const listed = await tool(clientA, 'reminders.list', {})
    expect(listed.reminders.map((r: { id: string }) => r.id)).toContain(licence.reminder_id)

    // verify again: same documents and dates, no new reminders.
    const again = await verify(clientA, subcontractor.id)
    expect(again.expiry_reminders).toEqual([])
    expect(await reminderRows(subcontractor.id)).toHaveLength(2)
  })

  it('an expiry more than 30 days ahead: one reminder, due on its notice day, not now', async () => {
    const { expiry_reminders } = await register(clientA, { name: 'Far Fran', licence_expiry: daysFromToday(400) })
    expect(expiry_reminders).toHaveLength(1)
    expect(Date.parse(expiry_reminders[0].due_at)).toBeGreaterThan(Date.now() + 300 * 86_400_000)
  })
})

describe('the subcontractor.verified webhook', () => {
  it('a move into verified delivers a signed subcontractor.verified with the subcontractor; activate, suspend and a re-check write none', async () => {
    const res = await app.call('POST', '/api/v1/webhooks', { key: a.api_key, body: { url: receiver.url('/sub-verified'), events: ['subcontractor.verified'] } })
    expect(res.status).toBe(201)
    const secret = res.body.secret as string
    const { subcontractor } = await register(clientA, { name: 'Vera Verified', phone: '0412 000 111', email: 'vera@example.com.au' })
    const mine = () => receiver.at('/sub-verified').filter((h) => JSON.parse(h.body).data.subcontractor.id === subcontractor.id)

    await verify(clientA, subcontractor.id, 'verify', 'licence seen')
    const [hit] = await waitFor(async () => mine(), (hits) => hits.length >= 1, 15_000)
    // Verified with the standard library: the body is exactly what was signed with this secret.
    const body = new Webhook(secret).verify(hit!.body, {
      'webhook-id': header(hit!, 'webhook-id'), 'webhook-timestamp': header(hit!, 'webhook-timestamp'), 'webhook-signature': header(hit!, 'webhook-signature'),
    }) as any
    expect(body).toMatchObject({
      type: 'subcontractor.verified', company_id: a.company_id,
      data: { from_status: 'pending', reason: 'licence seen', subcontractor: { id: subcontractor.id, name: 'Vera Verified', status: 'verified', phone: '+61412000111' } },
    })
    expect(body.data.subcontractor.verified_at).toBeTruthy()

    // None of these is a move into verified; back from suspended is.
    await verify(clientA, subcontractor.id, 'verify', 're-check')
    await verify(clientA, subcontractor.id, 'activate')
    await verify(clientA, subcontractor.id, 'suspend', 'insurance lapsed')
    await verify(clientA, subcontractor.id, 'verify', 'insurance renewed')
    const hits = await waitFor(async () => mine(), (h) => h.length >= 2, 15_000)
    expect(JSON.parse(hits[1]!.body).data).toMatchObject({ from_status: 'suspended', reason: 'insurance renewed', subcontractor: { status: 'verified' } })
    // Counted where the events are written: one per move into verified, nothing for the suspend.
    const written = await app.owner`select event_type, payload->>'from_status' as from_status from event_outbox where entity_id = ${subcontractor.id} order by id`
    expect(written.map((r) => `${r.event_type} from ${r.from_status}`)).toEqual(['subcontractor.verified from pending', 'subcontractor.verified from suspended'])
    expect(mine()).toHaveLength(2)
  })
})

describe('tenancy', () => {
  it("company B can neither see nor verify company A's subcontractor", async () => {
    const trade = `glazing-${Date.now()}`
    const { subcontractor } = await register(clientA, { trades: [trade] })
    expect((await tool(clientB, 'subcontractors.list', { trade })).subcontractors).toEqual([])
    for (const action of ['verify', 'activate', 'suspend', 'deactivate']) {
      const err = await toolError(clientB, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action })
      expect(err.error).toBe('not_found')
    }
    const rest = await app.call('POST', `/api/v1/subcontractors/${subcontractor.id}/verify`, { key: b.api_key, body: {} })
    expect(rest.status).toBe(404)
    const [row] = await app.owner`select status, verified_at from subcontractors where id = ${subcontractor.id}`
    expect(row).toMatchObject({ status: 'pending', verified_at: null })
    const [history] = await app.owner`select count(*)::int as n from subcontractor_verifications where subcontractor_id = ${subcontractor.id}`
    expect(history!.n).toBe(0)
  })
})
