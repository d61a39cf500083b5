// Domain events and the reactions to them: how one domain's change sets off work elsewhere (the
// automations) without the domain knowing who reacts. A service emits its event inside its
// transaction (the `emit` withTenantEmitting gives it). A public event (one of its domain's
// `events`: the webhook catalogue) is written to event_outbox; an internal one (`internalEvents`)
// is written nowhere and exists for reactions only. Every reaction naming the event then runs:
// - inTransaction, in the same transaction. A workflow it queues with `start` is written to
//   workflow_outbox there (write-then-start): a crash between commit and start still starts the
//   workflow exactly once, by the relay. What it returns is merged into emit's answer (quotes.send
//   reports the follow-up run it caused this way).
// - afterCommit, once the transaction has committed and its workflows were started: nudges
//   (signals to running workflows, which re-check the database) and other calls outside the
//   database. Awaited in order; a failure is thrown to the caller after all have run (the change
//   itself stays committed).
// - preview, for a dry run: the customer messages the reaction's work would send first, composed
//   by the function that work uses, with nothing written (leads.create's dry run shows the instant
//   reply this way without knowing the automation).
// defineDomain's `reactions` lists them; composeDomains checks each names declared events, and
// runtime.ts puts the composed EventReactions on deps.reactions.
import type postgres from 'postgres'
import type { Deps, DomainEvent, EmitScope, ReactionDispatcher } from './deps.js'
import { recordEvent, type EventType } from './events.js'
import { withTenantThenStart, type StartAfterCommit } from '../temporal/outbox.js'
import type { QueuedMessage } from '../../workflows/messages.js'

export type { DomainEvent }

export interface ReactionContext {
  deps: Deps
  tx: postgres.TransactionSql
  start: StartAfterCommit
  event: DomainEvent
}

/** What inTransaction reactions tell the emitting service (merged, later keys win). */
export type ReactionAnswer = Record<string, unknown>

export interface Reaction {
  /** For errors and logs: the automation and what it does, e.g. 'quote-follow-up: start'. */
  name: string
  on: readonly EventType[]
  inTransaction?(ctx: ReactionContext): Promise<ReactionAnswer | void>
  afterCommit?(deps: Deps, event: DomainEvent): void | Promise<void>
  /** The messages this reaction's work would send first for the event; writes nothing. */
  preview?(ctx: Omit<ReactionContext, 'start'>): Promise<QueuedMessage[]>
}

export type Emit = (event: DomainEvent) => Promise<ReactionAnswer>

/** The reactions of a domain list, by event type. */
export class EventReactions implements ReactionDispatcher {
  private readonly byType = new Map<string, Reaction[]>()
  private readonly recorded: Set<string>
  private readonly declared: Set<string>

  constructor(reactions: readonly Reaction[], events: { recorded: readonly string[]; internal: readonly string[] }) {
    this.recorded = new Set(events.recorded)
    this.declared = new Set([...events.recorded, ...events.internal])
    for (const name of events.internal) if (this.recorded.has(name)) throw new Error(`Event ${name} is declared both public and internal`)
    for (const reaction of reactions) {
      for (const type of reaction.on) {
        if (!this.declared.has(type)) throw new Error(`Reaction ${reaction.name} is on ${type}, which no domain declares`)
        this.byType.set(type, [...(this.byType.get(type) ?? []), reaction])
      }
    }
  }

  /** The reactions to an event type, in the domain list's order. */
  on(type: string): readonly Reaction[] {
    return this.byType.get(type) ?? []
  }

  async emit(scope: EmitScope, event: DomainEvent): Promise<ReactionAnswer> {
    if (!this.declared.has(event.type)) throw new Error(`Event ${event.type} is not declared by any domain (events or internalEvents)`)
    if (this.recorded.has(event.type)) await recordEvent(scope.tx, event)
    const answer: ReactionAnswer = {}
    for (const reaction of this.on(event.type)) {
      if (reaction.inTransaction) Object.assign(answer, await reaction.inTransaction({ deps: scope.deps, tx: scope.tx, start: scope.start, event }))
      if (reaction.afterCommit) {
        const after = reaction.afterCommit.bind(reaction)
        scope.afterCommit(() => after(scope.deps, event))
      }
    }
    return answer
  }

  /** A dry run of emitting: what the reactions would send first, in order; nothing is recorded or run. */
  async preview(scope: Omit<EmitScope, 'start' | 'afterCommit'>, event: DomainEvent): Promise<QueuedMessage[]> {
    if (!this.declared.has(event.type)) throw new Error(`Event ${event.type} is not declared by any domain (events or internalEvents)`)
    const messages: QueuedMessage[] = []
    for (const reaction of this.on(event.type)) if (reaction.preview) messages.push(...(await reaction.preview({ deps: scope.deps, tx: scope.tx, event })))
    return messages
  }
}

/**
 * withTenantThenStart for a change that emits domain events: `emit` records each and runs its
 * reactions in the transaction; after commit the queued workflows start, then the afterCommit
 * reactions run.
 */
export async function withTenantEmitting<T>(
  deps: Deps, companyId: string, fn: (tx: postgres.TransactionSql, emit: Emit, start: StartAfterCommit) => Promise<T>,
): Promise<T> {
  const after: (() => void | Promise<void>)[] = []
  const result = await withTenantThenStart(deps, companyId, (tx, start) =>
    fn(tx, (event) => deps.reactions.emit({ deps, tx, start, afterCommit: (run) => after.push(run) }, event), start))
  let failure: unknown = null
  for (const run of after) {
    try {
      await run()
    } catch (error) {
      failure ??= error
    }
  }
  if (failure) throw failure
  return result
}
