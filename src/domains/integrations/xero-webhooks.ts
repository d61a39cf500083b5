// Xero webhooks: x-xero-signature is the base64 HMAC-SHA256 of the raw body under the app's webhook
// key. A good signature is answered 200 (the intent-to-receive check sends one with no events), a
// bad one 401, and Xero wants the answer within 5 seconds: the events are only recorded here (one
// row per event and connection of its tenant), and after they commit each connection's sync
// workflow is asked for a round (started if it is not running): the sync itself runs there.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { findConnectionsOfTenant, insertWebhookEvents, type WebhookEvent } from './queries.js'
import { requestSync } from './sync.js'

export function xeroSignatureValid(rawBody: Buffer, signature: string | undefined, key: string): boolean {
  if (!signature) return false
  const expected = createHmac('sha256', key).update(rawBody).digest()
  const given = Buffer.from(signature, 'base64')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const isEvent = (e: unknown): e is WebhookEvent => {
  const v = e as Record<string, unknown>
  return typeof v?.tenantId === 'string' && typeof v.eventCategory === 'string' && typeof v.eventType === 'string'
    && typeof v.resourceId === 'string' && typeof v.eventDateUtc === 'string' && !Number.isNaN(Date.parse(v.eventDateUtc))
}

/** Records a verified payload's events; events of tenants no company has connected are dropped (logged). */
export async function recordXeroEvents(deps: Deps, rawBody: Buffer): Promise<{ recorded: number; ignored: number }> {
  let events: unknown[] = []
  try {
    events = ((JSON.parse(rawBody.toString('utf8')) as { events?: unknown[] }).events ?? [])
  } catch {
    return { recorded: 0, ignored: 0 } // signed by Xero but not JSON: nothing to record
  }
  const valid = Array.isArray(events) ? events.filter(isEvent) : []
  let recorded = 0
  let ignored = (Array.isArray(events) ? events.length : 0) - valid.length
  const toSync: { company_id: string; connection_id: string }[] = []
  const byTenant = new Map<string, WebhookEvent[]>()
  for (const e of valid) byTenant.set(e.tenantId, [...(byTenant.get(e.tenantId) ?? []), e])
  for (const [tenantId, tenantEvents] of byTenant) {
    const connections = await findConnectionsOfTenant(deps.db.app, 'xero', tenantId)
    if (connections.length === 0) ignored += tenantEvents.length
    for (const c of connections) {
      const added = await withTenant(deps.db, c.company_id, (tx) => insertWebhookEvents(tx, c.company_id, c.connection_id, tenantEvents, deps.clock.now()))
      recorded += added
      if (added) toSync.push(c)
    }
  }
  // A redelivered event (nothing new) asks for nothing. A failed request is only logged: the events
  // wait in the table and the next round (the interval) takes them.
  await Promise.all(toSync.map((c) => requestSync(deps, c.company_id, c.connection_id).catch((err: unknown) =>
    deps.logger.warn({ err, connectionId: c.connection_id }, 'xero webhook: the sync could not be asked for a round'))))
  if (ignored) deps.logger.info({ ignored }, 'xero webhook: events of no connected tenant (or malformed) ignored')
  return { recorded, ignored }
}
