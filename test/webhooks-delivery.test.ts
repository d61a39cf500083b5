// Webhook delivery when the receiver misbehaves, through the real service and a real HTTP receiver
// on loopback, with a short retry schedule (0, 50, 100 ms): retries until it answers 2xx (every
// attempt listed with status, latency and the first 1 KB of the answer), Retry-After honoured,
// 410 disabling the subscription, redirects never followed, the final failure, redelivery and
// recovery with the same webhook-id, a subscription failing for longer than
// WEBHOOK_DISABLE_AFTER_DAYS disabled with its owner emailed, and one slow receiver not holding up
// another subscription's deliveries (each subscription has a delivery workflow of its own). Every request is verified with the
// `standardwebhooks` package and with an HMAC of X-Webhook-Signature computed here.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createHmac } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, uniqueEmail, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { header, startReceiver, type Hit, type Receiver } from './helpers/receiver.js'
import { connectClient } from '../src/temporal/connection.js'
import { CompanyIdKey } from '../src/temporal/search-attributes.js'
import { webhookDeliveriesWorkflowId } from '../src/domains/webhooks/workflows/webhook-deliveries.js'



/** Verifies with the official library and by recomputing X-Webhook-Signature; returns the body. */
function verified(hit: Hit, secret: string): any {
  expect(hit.method).toBe('POST')
  expect(() => new Webhook(secret).verify(hit.body, {
    'webhook-id': header(hit, 'webhook-id'), 'webhook-timestamp': header(hit, 'webhook-timestamp'), 'webhook-signature': header(hit, 'webhook-signature'),
  })).not.toThrow()
  const parts = header(hit, 'x-webhook-signature').split(',').map((p) => p.split('='))
  const t = parts.filter(([k]) => k === 't').map(([, v]) => v!)
  expect(t).toEqual([header(hit, 'webhook-timestamp')])
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  expect(parts.filter(([k]) => k === 'v1').map(([, v]) => v)).toContain(createHmac('sha256', key).update(`${t[0]}.${hit.body}`).digest('hex'))
  const body = JSON.parse(hit.body)
  expect(header(hit, 'webhook-id')).toBe(body.id)
  return body
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)))

/** A company of its own on a running app, an MCP client and helpers around its webhooks. */
async function companyOn(app: TestApp, receiver: Receiver) {
  const email = uniqueEmail('webhooks')
  const company = await onboard(app, { email })
  const client = await connectHttp(app, company.api_key)
  clients.push(client)
  const rest = (method: string, path: string, body?: unknown) => app.call(method, `/api/v1${path}`, { key: company.api_key, body })
  return {
    app, company, email, client, rest,
    async subscribe(path: string, events = ['lead.created']) {
      const res = await rest('POST', '/webhooks', { url: receiver.url(path), events })
      expect(res.status).toBe(201)
      return res.body as { subscription: { id: string }; secret: string }
    },
    async deliveries(id: string, status?: string) {
      const res = await rest('GET', `/webhooks/${id}/deliveries${status ? `?status=${status}` : ''}`)
      expect(res.status).toBe(200)
      return res.body.deliveries as any[]
    },
    async subscription(id: string) {
      return (await rest('GET', '/webhooks')).body.webhooks.find((w: { id: string }) => w.id === id)
    },
    lead: async (name: string) => (await tool(client, 'leads.create', { name })).lead as { id: string },
  }
}

const startApp = (config: Record<string, unknown>) =>
  startTestApp({ config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_TIMEOUT_MS: 5000, ...config } })

let receiver: Receiver
let fast: TestApp // a short retry schedule; each test has a company of its own on it, so they run together
let slow: TestApp // only for disabling after failing for days
const clients: McpClient[] = []
const arrived = (path: string, n: number, timeoutMs = 15_000) => waitFor(async () => receiver.at(path), (hits) => hits.length >= n, timeoutMs)

beforeAll(async () => {
  receiver = await startReceiver()
  ;[fast, slow] = await Promise.all([
    startApp({ WEBHOOK_RETRY_SCHEDULE_MS: '0,50,100' }),
    // 0.00003 days is 2.592 s. Attempts 400 ms apart (about 1 s in practice: dev-server timers) get
    // there after a few failures and well within the schedule.
    startApp({ WEBHOOK_DISABLE_AFTER_DAYS: 0.00003, WEBHOOK_RETRY_SCHEDULE_MS: '0,400,400,400,400,400,400,400' }),
  ])
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await fast?.stop()
  await slow?.stop()
  await receiver?.close()
})

// The tests wait on retry timers; each has a company of its own, so they run together.
describe.concurrent('webhook delivery', () => {
  describe('retries', () => {
    it('a receiver answering 500 twice then 200 gets the event on attempt 3, same webhook-id each time, every attempt listed', async () => {
      const t = await companyOn(fast, receiver)
      const errorPage = 'E'.repeat(3000)
      receiver.answer('/flaky', (n) => (n <= 2 ? { status: 500, body: errorPage } : { status: 200, body: 'thanks', delayMs: 150 }))
      const { subscription, secret } = await t.subscribe('/flaky')
      const lead = await t.lead('Retry Me')
      const hits = await arrived('/flaky', 3)
      const sent = hits.map((h) => verified(h, secret))
      expect(new Set(hits.map((h) => header(h, 'webhook-id'))).size).toBe(1)
      expect(new Set(hits.map((h) => h.body)).size).toBe(1) // the same bytes each time
      expect(sent[0]).toMatchObject({ type: 'lead.created', company_id: t.company.company_id, data: { lead: { id: lead.id, name: 'Retry Me' } } })

      const [delivery] = await waitFor(() => t.deliveries(subscription.id), (d) => d[0]?.status === 'delivered')
      expect(delivery).toMatchObject({ subscriptionId: subscription.id, eventId: sent[0].id, eventType: 'lead.created', status: 'delivered' })
      expect(Date.parse(delivery.deliveredAt)).toBeGreaterThanOrEqual(Date.parse(delivery.attempts[2].at))
      expect(delivery.attempts.map((x: any) => [x.attempt, x.ok, x.responseStatus])).toEqual([[1, false, 500], [2, false, 500], [3, true, 200]])
      expect(delivery.attempts.map((x: any) => x.responseBody)).toEqual(['E'.repeat(1024), 'E'.repeat(1024), 'thanks'])
      for (const x of delivery.attempts) expect(Number.isInteger(x.latencyMs) && x.latencyMs >= 0).toBe(true)
      expect(delivery.attempts[2].latencyMs).toBeGreaterThanOrEqual(140) // the receiver took 150 ms to answer
      expect(delivery.attempts[2].latencyMs).toBeLessThan(5000)

      expect(await t.deliveries(subscription.id, 'delivered')).toHaveLength(1)
      expect(await t.deliveries(subscription.id, 'failed')).toEqual([])
      expect(await t.subscription(subscription.id)).toMatchObject({ status: 'active', failingSince: null })
    })

    it('honours Retry-After: after a 503 saying 3 seconds the next attempt waits that long, though the schedule says 50 ms', async () => {
      const t = await companyOn(fast, receiver)
      // Timers on the Temporal dev server fire about 1 s late at the earliest, so a 50 ms schedule
      // step already takes ~1 s: Retry-After: 1 would not be told apart from it; 3 s is.
      receiver.answer('/busy', (n) => (n === 1 ? { status: 503, headers: { 'Retry-After': '3' } } : n === 2 ? { status: 503 } : { status: 200 }))
      const { subscription, secret } = await t.subscribe('/busy')
      await t.lead('Busy Receiver')
      const [first, second, third] = await arrived('/busy', 3, 20_000)
      const id = verified(first!, secret).id
      expect([verified(second!, secret).id, verified(third!, secret).id]).toEqual([id, id])
      const askedToWait = second!.at - first!.at
      const onSchedule = third!.at - second!.at // a 503 without Retry-After: the schedule's 100 ms
      expect(askedToWait).toBeGreaterThanOrEqual(2950)
      expect(onSchedule).toBeLessThan(askedToWait)
      const [delivery] = await waitFor(() => t.deliveries(subscription.id), (d) => d[0]?.status === 'delivered')
      expect(delivery.attempts.map((x: any) => x.responseStatus)).toEqual([503, 503, 200])
    })

    it('410 Gone disables the subscription (status disabled, with the reason) and nothing more is attempted or delivered', async () => {
      const t = await companyOn(fast, receiver)
      receiver.answer('/gone', () => ({ status: 410, body: 'unsubscribed' }))
      const { subscription, secret } = await t.subscribe('/gone')
      const control = await t.subscribe('/gone-control')
      await t.lead('First After Gone')
      const [hit] = await arrived('/gone', 1)
      verified(hit!, secret)
      const sub = await waitFor(() => t.subscription(subscription.id), (s) => s.status === 'disabled')
      expect(sub.status).toBe('disabled')
      expect(sub.disabledReason).toMatch(/410/)
      const [delivery] = await waitFor(() => t.deliveries(subscription.id), (d) => d[0]?.status === 'failed')
      expect(delivery.attempts.map((x: any) => [x.ok, x.responseStatus, x.responseBody])).toEqual([[false, 410, 'unsubscribed']])

      // A later event reaches the control subscription but not the disabled one.
      const later = await t.lead('Second After Gone')
      await waitFor(async () => receiver.at('/gone-control').map((h) => JSON.parse(h.body).data.lead.id), (ids) => ids.includes(later.id))
      verified(receiver.at('/gone-control').at(-1)!, control.secret)
      await pause(hit!.at + 1500 - Date.now()) // past when the schedule's next attempt would have come (~1 s)
      expect(receiver.at('/gone')).toHaveLength(1)
      expect(await t.deliveries(subscription.id)).toHaveLength(1)
      expect((await t.rest('POST', `/webhooks/deliveries/${delivery.id}/redeliver`)).body.error).toBe('conflict')
    })

    it('a redirect to another local server is not followed: that server gets no request, and each attempt is recorded as failed', async () => {
      const t = await companyOn(fast, receiver)
      const elsewhere = await startReceiver()
      try {
        const target = elsewhere.url('/catch')
        const statuses = [302, 307, 301]
        receiver.answer('/moved', (n) => ({ status: statuses[n - 1] ?? 302, headers: { Location: target } }))
        const { subscription, secret } = await t.subscribe('/moved')
        await t.lead('Redirected')
        const hits = await arrived('/moved', 3)
        hits.forEach((h) => verified(h, secret))
        const [delivery] = await waitFor(() => t.deliveries(subscription.id), (d) => d[0]?.status === 'failed')
        expect(delivery.status).toBe('failed')
        expect(delivery.deliveredAt).toBeNull()
        expect(delivery.attempts.map((x: any) => [x.attempt, x.ok, x.responseStatus])).toEqual([[1, false, 302], [2, false, 307], [3, false, 301]])
        for (const x of delivery.attempts) expect(x.error).toMatch(/redirect/i)
        expect(elsewhere.all()).toEqual([])
        expect(elsewhere.connections()).toBe(0)
        expect(receiver.at('/moved')).toHaveLength(3)
      } finally {
        await elsewhere.close()
      }
    })
  })

  describe('failure, redelivery and recovery', () => {
    it('after the final attempt the delivery is failed; redeliver sends it again with the same webhook-id', async () => {
      const t = await companyOn(fast, receiver)
      let up = false
      receiver.answer('/down', () => (up ? { status: 204 } : { status: 500, body: 'down for maintenance' }))
      const { subscription, secret } = await t.subscribe('/down')
      await t.lead('Failed Then Redelivered')
      const hits = await arrived('/down', 3)
      const [delivery] = await waitFor(() => t.deliveries(subscription.id), (d) => d[0]?.status === 'failed')
      expect(delivery.status).toBe('failed')
      expect(delivery.attempts.map((x: any) => [x.run, x.attempt, x.ok, x.responseStatus])).toEqual([[0, 1, false, 500], [0, 2, false, 500], [0, 3, false, 500]])
      expect(receiver.at('/down')).toHaveLength(3)
      const first = verified(hits[0]!, secret)

      up = true
      const again = await t.rest('POST', `/webhooks/deliveries/${delivery.id}/redeliver`)
      expect(again.status).toBe(202)
      expect(again.body.delivery).toMatchObject({ id: delivery.id, status: 'pending' })
      expect(typeof again.body.workflow_id).toBe('string')
      const [, , , fourth] = await arrived('/down', 4)
      expect(header(fourth!, 'webhook-id')).toBe(first.id)
      expect(verified(fourth!, secret)).toEqual(first)
      const [after] = await waitFor(() => t.deliveries(subscription.id), (d) => d[0]?.status === 'delivered')
      expect(after.attempts.map((x: any) => [x.run, x.attempt, x.ok, x.responseStatus])).toEqual([[0, 1, false, 500], [0, 2, false, 500], [0, 3, false, 500], [1, 1, true, 204]])
      expect(await t.subscription(subscription.id)).toMatchObject({ status: 'active', failingSince: null })
    })

    it('recover {since} redelivers every failed delivery since then, and only those', async () => {
      const t = await companyOn(fast, receiver)
      let up = false
      receiver.answer('/recover', () => (up ? { status: 200 } : { status: 502 }))
      const { subscription, secret } = await t.subscribe('/recover')
      up = true
      await t.lead('Delivered Early')
      await waitFor(() => t.deliveries(subscription.id, 'delivered'), (d) => d.length === 1)
      up = false
      await pause(20)
      const since = new Date().toISOString()
      const lost = [await t.lead('Lost One'), await t.lead('Lost Two')]
      const failed = await waitFor(() => t.deliveries(subscription.id, 'failed'), (d) => d.length === 2)
      expect(failed).toHaveLength(2)
      const failedIds = receiver.at('/recover').filter((h) => lost.some((l) => h.body.includes(l.id))).map((h) => verified(h, secret).id)
      expect(new Set(failedIds).size).toBe(2)
      expect(failedIds).toHaveLength(6) // three attempts each

      // Nothing failed after now: nothing to recover.
      const none = await t.rest('POST', `/webhooks/${subscription.id}/recover`, { since: new Date(Date.now() + 1000).toISOString() })
      expect([none.status, none.body.redelivered]).toEqual([202, 0])

      up = true
      const before = receiver.at('/recover').length
      const res = await t.rest('POST', `/webhooks/${subscription.id}/recover`, { since })
      expect(res.status).toBe(202)
      expect(res.body.redelivered).toBe(2)
      expect(res.body.workflow_ids).toHaveLength(2)
      const hits = await arrived('/recover', before + 2)
      await pause(300)
      const resent = receiver.at('/recover').slice(before)
      expect(resent).toHaveLength(2)
      const bodies = resent.map((h) => verified(h, secret))
      expect(bodies.map((x) => x.id).sort()).toEqual([...new Set(failedIds)].sort())
      expect(bodies.map((x) => x.data.lead.id).sort()).toEqual(lost.map((l) => l.id).sort())
      expect(hits.length).toBe(before + 2)
      const all = await waitFor(() => t.deliveries(subscription.id), (d) => d.every((x) => x.status === 'delivered'))
      expect(all.map((x) => x.status)).toEqual(['delivered', 'delivered', 'delivered'])
    })
  })

  describe('a subscription failing for WEBHOOK_DISABLE_AFTER_DAYS', () => {
    it('is disabled with the reason, attempts stop, and the owner gets one webhook_disabled email', async () => {
      const slowCo = await companyOn(slow, receiver)
      receiver.answer('/always-500', () => ({ status: 500 }))
      const { subscription, secret } = await slowCo.subscribe('/always-500')
      await slowCo.lead('Never Delivered')
      const sub = await waitFor(() => slowCo.subscription(subscription.id), (s) => s.status === 'disabled', 15_000)
      expect(sub.status).toBe('disabled')
      expect(sub.disabledReason).toMatch(/failing for .*days/)
      const [delivery] = await waitFor(() => slowCo.deliveries(subscription.id), (d) => d[0]?.status === 'failed')
      const { attempts } = delivery
      const span = (i: number) => Date.parse(attempts[i].at) - Date.parse(attempts[0].at)
      // Disabled at the first attempt 2.592 s or more after the first failure, not at the failures before it,
      // and before the schedule ran out.
      const threshold = 0.00003 * 86_400_000
      expect(attempts.length).toBeGreaterThanOrEqual(2)
      expect(span(attempts.length - 1)).toBeGreaterThanOrEqual(threshold)
      expect(span(attempts.length - 2)).toBeLessThan(threshold)
      expect(attempts.length).toBeLessThan(8)
      expect(attempts.every((x: any) => !x.ok && x.responseStatus === 500)).toBe(true)
      await pause(receiver.at('/always-500').at(-1)!.at + 1500 - Date.now()) // past when a next attempt would have come
      const hits = receiver.at('/always-500')
      expect(hits).toHaveLength(attempts.length)
      hits.forEach((h) => verified(h, secret))

      const mail = await waitFor(() => slow.owner<{ channel: string; to_address: string; subject: string | null; body: string }[]>`
        select channel, to_address, subject, body from communications where company_id = ${slowCo.company.company_id} and message_type = 'webhook_disabled'`,
      (rows) => rows.length > 0, 10_000)
      expect(mail).toHaveLength(1)
      expect(mail[0]).toMatchObject({ channel: 'email', to_address: slowCo.email })
      expect(`${mail[0]!.subject} ${mail[0]!.body}`).toContain(receiver.url('/always-500'))

      // A disabled subscription gets no new deliveries.
      await slowCo.lead('After Disabling') // deliveries are written with the event, in its transaction
      expect(await slowCo.deliveries(subscription.id)).toHaveLength(1)
      expect(receiver.at('/always-500')).toHaveLength(attempts.length)
      expect((await slow.owner`select count(*)::int as n from communications where message_type = 'webhook_disabled'`)[0]!.n).toBe(1)
    })
  })

  describe('one delivery workflow per subscription', () => {
    it('a slow receiver holds only its own subscription: the other gets its deliveries first; each subscription has its run, found by CompanyId', async () => {
      const t = await companyOn(fast, receiver)
      receiver.answer('/slow-receiver', () => ({ status: 200, delayMs: 4500 }))
      const slowSub = await t.subscribe('/slow-receiver')
      const quickSub = await t.subscribe('/quick-receiver')
      for (const name of ['Isolated One', 'Isolated Two', 'Isolated Three']) await t.lead(name)
      await waitFor(() => t.deliveries(quickSub.subscription.id), (d) => d.length === 3 && d.every((x) => x.status === 'delivered'))
      // The slow receiver has had the requests but not answered one yet: still pending there.
      expect((await t.deliveries(slowSub.subscription.id)).map((x) => x.status)).toEqual(['pending', 'pending', 'pending'])
      await waitFor(() => t.deliveries(slowSub.subscription.id), (d) => d.length === 3 && d.every((x) => x.status === 'delivered'), 20_000)
      expect(receiver.at('/slow-receiver')).toHaveLength(3)
      expect(receiver.at('/quick-receiver')).toHaveLength(3)

      const temporal = await connectClient(inject('temporalAddress'), 'default')
      try {
        const ids = await waitFor(async () => {
          const found: string[] = []
          for await (const wf of temporal.workflow.list({ query: `CompanyId = "${t.company.company_id}" AND WorkflowType = "webhookDeliveries"` })) found.push(wf.workflowId)
          return [...new Set(found)].sort()
        }, (found) => found.length === 2, 15_000, 250)
        expect(ids).toEqual([slowSub, quickSub].map((x) => webhookDeliveriesWorkflowId({ companyId: t.company.company_id, subscriptionId: x.subscription.id })).sort())
      } finally {
        await temporal.connection.close()
      }
    })

    it('continues as new after its passes, keeping CompanyId on every run, and loses no delivery across runs', async () => {
      const t = await companyOn(fast, receiver)
      const { subscription } = await t.subscribe('/continued')
      const keys = { companyId: t.company.company_id, subscriptionId: subscription.id }
      const workflowId = webhookDeliveriesWorkflowId(keys)
      const temporal = await connectClient(inject('temporalAddress'), 'default')
      try {
        // Started here with two passes a run (the dispatcher then only signals it).
        await temporal.workflow.start('webhookDeliveries', {
          taskQueue: fast.config.TEMPORAL_TASK_QUEUE, workflowId, args: [{ ...keys, scheduleMs: [0, 50, 100], idleMs: 60_000, passesPerRun: 2 }],
          typedSearchAttributes: [{ key: CompanyIdKey, value: t.company.company_id }],
        })
        for (let i = 1; i <= 5; i++) {
          await t.lead(`Continued ${i}`)
          await arrived('/continued', i)
        }
        await waitFor(() => t.deliveries(subscription.id), (d) => d.length === 5 && d.every((x) => x.status === 'delivered'))
        const runs = await waitFor(async () => {
          const found: string[] = []
          for await (const wf of temporal.workflow.list({ query: `CompanyId = "${t.company.company_id}" AND WorkflowId = "${workflowId}"` })) found.push(wf.runId)
          return found
        }, (found) => found.length >= 3, 15_000, 250)
        expect(runs.length).toBeGreaterThanOrEqual(3)
        expect(new Set(receiver.at('/continued').map((h) => header(h, 'webhook-id'))).size).toBe(5)
      } finally {
        await temporal.workflow.getHandle(workflowId).terminate('test done').catch(() => {})
        await temporal.connection.close()
      }
    })
  })
})
