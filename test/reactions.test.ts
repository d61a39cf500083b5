// The one subscription mechanism (src/core/reactions.ts), against a real database: a public event is
// written with the change and an internal one is not; inTransaction reactions share the change's
// transaction (a failure undoes both) and queue workflows there; afterCommit reactions run once the
// change is visible to everyone, and their failure reaches the caller with the change kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventReactions, withTenantEmitting, type Reaction } from '../src/core/reactions.js'
import type { Deps } from '../src/core/deps.js'
import { composition } from '../src/domains/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'

let app: TestApp
let companyId: string
beforeAll(async () => {
  app = await startTestApp()
  companyId = (await onboard(app)).company_id
})
afterAll(() => app?.stop())

function depsWith(reactions: Reaction[]): Deps {
  return { ...app.runtime.deps, reactions: new EventReactions(reactions, { recorded: composition.registry.events, internal: composition.internalEvents }) }
}

const outboxRows = (entityId: string) => app.owner<{ event_type: string }[]>`select event_type from event_outbox where entity_id = ${entityId}`

describe('reactions', () => {
  it('records public events, not internal ones; answers merge; afterCommit sees the committed change', async () => {
    const seen: string[] = []
    const leadId = crypto.randomUUID()
    const deps = depsWith([
      { name: 'probe: in', on: ['lead.created', 'job.changed'], async inTransaction({ event, tx }) {
        const [n] = await tx<{ n: number }[]>`select count(*)::int as n from event_outbox where entity_id = ${leadId}`
        seen.push(`in:${event.type}:${n!.n}`)
        return { [event.type]: true }
      } },
      { name: 'probe: after', on: ['lead.created'], async afterCommit(_deps, event) {
        // Another connection already sees what the transaction wrote.
        seen.push(`after:${event.type}:${(await outboxRows(leadId)).length}`)
      } },
    ])
    const answers = await withTenantEmitting(deps, companyId, async (_tx, emit) => {
      const a = await emit({ companyId, type: 'lead.created', entityType: 'lead', entityId: leadId, payload: { lead: { id: leadId } }, at: new Date() })
      const b = await emit({ companyId, type: 'job.changed', entityType: 'job', entityId: leadId, payload: { jobId: leadId, quoteId: null, status: 'Scheduled' }, at: new Date() })
      seen.push('body done')
      return { ...a, ...b }
    })
    expect(answers).toEqual({ 'lead.created': true, 'job.changed': true })
    expect(seen).toEqual(['in:lead.created:1', 'in:job.changed:1', 'body done', 'after:lead.created:1'])
    expect((await outboxRows(leadId)).map((r) => r.event_type)).toEqual(['lead.created'])
  })

  it('a failing inTransaction reaction undoes the change and its event; a failing afterCommit keeps it', async () => {
    const leadId = crypto.randomUUID()
    const failing = depsWith([{ name: 'probe: refuses', on: ['lead.created'], inTransaction: async () => { throw new Error('refused') } }])
    await expect(withTenantEmitting(failing, companyId, (_tx, emit) =>
      emit({ companyId, type: 'lead.created', entityType: 'lead', entityId: leadId, payload: {}, at: new Date() }))).rejects.toThrow('refused')
    expect(await outboxRows(leadId)).toEqual([])

    let ranSecond = false
    const late = depsWith([
      { name: 'probe: late failure', on: ['lead.created'], afterCommit: async () => { throw new Error('late') } },
      { name: 'probe: still runs', on: ['lead.created'], afterCommit: () => { ranSecond = true } },
    ])
    await expect(withTenantEmitting(late, companyId, (_tx, emit) =>
      emit({ companyId, type: 'lead.created', entityType: 'lead', entityId: leadId, payload: {}, at: new Date() }))).rejects.toThrow('late')
    expect(ranSecond).toBe(true)
    expect(await outboxRows(leadId)).toHaveLength(1)
  })

  it('an event no domain declares is refused', async () => {
    await expect(withTenantEmitting(depsWith([]), companyId, (_tx, emit) =>
      emit({ companyId, type: 'lead.exploded', entityType: 'lead', entityId: crypto.randomUUID(), payload: {}, at: new Date() }))).rejects.toThrow(/not declared/)
  })
})
