// Retention (issue 27) on the real app: rows older than their retention are deleted by one fire of
// the retention Temporal Schedule (set at start-up), in batches; new rows, unsettled rows and
// events a delivery still refers to stay. Rows are written as the owner with past timestamps.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { waitFor } from './helpers/wait.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { insertIdempotencyKey, insertWorkflowOutboxRow } from './helpers/retention-rows.js'
import { connectClient } from '../src/temporal/connection.js'
import { retentionScheduleId } from '../src/domains/ops/retention.js'

let app: TestApp
let temporal: Client
const DAY = 86_400_000
const ago = (days: number) => new Date(Date.now() - days * DAY)

beforeAll(async () => {
  // Batches of 2, so each kind takes several statements.
  app = await startTestApp({ config: { RETENTION_SCHEDULE: true, RETENTION_BATCH_SIZE: 2, RETENTION_OUTBOX_DAYS: 7, RETENTION_DELIVERY_DAYS: 30 } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  await temporal?.schedule.getHandle(retentionScheduleId(app.config.TEMPORAL_TASK_QUEUE)).delete().catch(() => {})
  await temporal?.connection.close()
  await app?.stop()
})

describe('retention', () => {
  it('one fire of the schedule deletes only what is past its retention, across companies, and counts it', async () => {
    const a = await onboard(app)
    const b = await onboard(app)
    const sql = app.owner
    // A quote still awaiting a reply, its quote.sent event 10 days old: the follow-up reads it, so it stays.
    const client = await connectHttp(app, a.api_key)
    const { lead } = await tool(client, 'leads.create', { name: 'Retention Quote', phone: '0412 345 999', serviceType: 'Plumbing', suburb: 'Parramatta' })
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Fan', quantity: 1, unitPrice: 200 }] })
    await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true })
    await client.close()
    const [sent] = await sql<{ id: string }[]>`update event_outbox set created_at = ${ago(10)} where event_type = 'quote.sent' and entity_id = ${quote.id} returning id::text`
    expect(sent).toBeDefined()
    const before = {
      keys: (await sql<{ n: number }[]>`select count(*)::int as n from idempotency_keys`)[0]!.n,
      outbox: (await sql<{ n: number }[]>`select count(*)::int as n from workflow_outbox`)[0]!.n,
      events: (await sql<{ n: number }[]>`select count(*)::int as n from event_outbox`)[0]!.n,
    }

    // Idempotency keys: 5 expired (a day past their 24 h) across both companies, 1 still live.
    for (const [i, company] of [a, a, a, b, b].entries()) await insertIdempotencyKey(sql, company.company_id, `old-${i}`, ago(2), ago(1))
    await insertIdempotencyKey(sql, a.company_id, 'live', ago(0.5), new Date(Date.now() + DAY / 2))

    // Workflow outbox: 3 started 10 days ago (go), 1 never started (stays), 1 started yesterday (stays).
    const outbox = (company: string, created: Date, started: Date | null) => insertWorkflowOutboxRow(sql, company, created, started)
    for (const company of [a, b, b]) await outbox(company.company_id, ago(10), ago(10))
    await outbox(a.company_id, ago(10), null)
    await outbox(b.company_id, ago(1), ago(1))

    // Events and webhook deliveries (a subscription to an event type nothing else emits).
    const event = async (company: string, created: Date) =>
      (await sql<{ id: string }[]>`insert into event_outbox (company_id, event_type, entity_type, entity_id, payload, created_at)
                                  values (${company}, 'retention.probe', 'lead', gen_random_uuid(), '{}'::jsonb, ${created}) returning id::text`)[0]!.id
    const [sub] = await sql<{ id: string }[]>`insert into webhook_subscriptions (company_id, url, events, secret)
                                              values (${a.company_id}, 'https://example.com/hook', '{other.event}', 'whsec_x') returning id`
    const delivery = async (eventId: string, status: string, created: Date, attempts: number) => {
      const [d] = await sql<{ id: string }[]>`insert into webhook_deliveries (company_id, subscription_id, event_id, event_type, status, attempts, created_at)
                                              values (${a.company_id}, ${sub!.id}, ${eventId}, 'retention.probe', ${status}, ${attempts}, ${created}) returning id`
      for (let n = 1; n <= attempts; n++) {
        await sql`insert into webhook_attempts (company_id, delivery_id, attempt, ok, latency_ms, created_at)
                  values (${a.company_id}, ${d!.id}, ${n}, ${n === attempts && status === 'delivered'}, 5, ${created})`
      }
      return d!.id
    }
    const oldBare = [await event(a.company_id, ago(10)), await event(b.company_id, ago(10)), await event(b.company_id, ago(9))]
    const newBare = await event(a.company_id, ago(1))
    const oldDelivered = await event(a.company_id, ago(40))
    const oldFailed = await event(a.company_id, ago(35))
    const oldPending = await event(a.company_id, ago(40))
    const recentDelivered = await event(a.company_id, ago(10))
    const deliveredId = await delivery(oldDelivered, 'delivered', ago(40), 2)
    const failedId = await delivery(oldFailed, 'failed', ago(35), 3)
    const pendingId = await delivery(oldPending, 'pending', ago(40), 1)
    const recentId = await delivery(recentDelivered, 'delivered', ago(10), 1)

    // One fire of the schedule the app set at start-up.
    const schedule = temporal.schedule.getHandle(retentionScheduleId(app.config.TEMPORAL_TASK_QUEUE))
    expect((await schedule.describe()).action).toMatchObject({ workflowType: 'dataRetention', taskQueue: app.config.TEMPORAL_TASK_QUEUE })
    await schedule.trigger()
    const fired = await waitFor(async () => (await schedule.describe()).info.recentActions, (actions) => actions.length > 0, 20_000)
    const result = await temporal.workflow.getHandle(fired[0]!.action.workflow.workflowId).result()
    expect(result).toEqual({ idempotency_keys: 5, workflow_outbox: 3, webhook_deliveries: 2, webhook_attempts: 5, event_outbox: 5 })

    const keys = await sql<{ key: string }[]>`select key from idempotency_keys where key in ('live', 'old-0', 'old-4')`
    expect(keys.map((k) => k.key)).toEqual(['live'])
    expect((await sql<{ n: number }[]>`select count(*)::int as n from idempotency_keys`)[0]!.n).toBe(before.keys + 1)
    const left = await sql<{ started: boolean }[]>`select started_at is not null as started from workflow_outbox where workflow_type = 'retentionProbe' order by created_at`
    expect(left).toEqual([{ started: false }, { started: true }])
    expect((await sql<{ n: number }[]>`select count(*)::int as n from workflow_outbox`)[0]!.n).toBe(before.outbox + 2)

    const events = (await sql<{ id: string }[]>`select id::text from event_outbox where event_type = 'retention.probe'`).map((e) => e.id).sort()
    expect(events).toEqual([newBare, oldPending, recentDelivered].sort())
    expect(events).not.toContain(oldBare[0])
    const deliveries = (await sql<{ id: string }[]>`select id from webhook_deliveries where subscription_id = ${sub!.id}`).map((d) => d.id).sort()
    expect(deliveries).toEqual([pendingId, recentId].sort())
    expect(deliveries).not.toContain(deliveredId)
    expect(deliveries).not.toContain(failedId)
    const attempts = await sql<{ delivery_id: string }[]>`select delivery_id from webhook_attempts where delivery_id in (${pendingId}, ${recentId}, ${deliveredId}, ${failedId})`
    expect(attempts.map((x) => x.delivery_id).sort()).toEqual([pendingId, recentId].sort())

    // The onboarding's and the quote's events are untouched, the aged quote.sent among them.
    expect((await sql<{ n: number }[]>`select count(*)::int as n from event_outbox where id = ${sent!.id}`)[0]!.n).toBe(1)
    expect((await sql<{ n: number }[]>`select count(*)::int as n from event_outbox`)[0]!.n).toBe(before.events + 3)

    // A second run finds nothing more.
    const again = await temporal.workflow.execute('dataRetention', {
      taskQueue: app.config.TEMPORAL_TASK_QUEUE, workflowId: `retention-again-${Date.now()}`, args: [{ companyId: '00000000-0000-0000-0000-000000000000' }],
    })
    expect(again).toEqual({ idempotency_keys: 0, workflow_outbox: 0, webhook_deliveries: 0, webhook_attempts: 0, event_outbox: 0 })
  }, 60_000)
})
