// Everything the service needs from its domains, derived from the one domain list: the registry
// (operations, resources, toolsets, events), the activity set, the workflow definitions and the
// GET /usage record counts. A new domain appears everywhere by being added to that list.
import type postgres from 'postgres'
import type { ActivityFactory, DomainDefinition } from './domain.js'
import type { Deps } from './deps.js'
import { Registry } from './registry.js'
import { EventReactions } from './reactions.js'
import type { ActivitiesNeededBy, AnyWorkflowDefinition } from '../temporal/contract.js'
import { workflowType } from '../temporal/contract.js'

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never

/** The merged activity functions of a domain list, typed (workflows `import type` this). */
export type ActivitiesOf<D extends readonly DomainDefinition[]> = UnionToIntersection<
  { [K in keyof D]: D[K]['activities'] extends ActivityFactory ? ReturnType<D[K]['activities']> : never }[number]
>

/** Every activity the domains' workflows call: what the activity set must provide (activities/index.ts). */
export type WorkflowActivitiesOf<D extends readonly DomainDefinition[]> = ActivitiesNeededBy<
  { [K in keyof D]: D[K]['workflows'] extends readonly AnyWorkflowDefinition[] ? D[K]['workflows'][number] : never }[number][]
>

export interface Composition<D extends readonly DomainDefinition[]> {
  domains: D
  registry: Registry
  workflows: AnyWorkflowDefinition[]
  /** Every domain's reactions to domain events, checked against the events the domains declare. */
  reactions: EventReactions
  /** Events emitted for reactions only (never written, not in the webhook catalogue). */
  internalEvents: string[]
  createActivities(deps: Deps): ActivitiesOf<D>
  countResources(tx: postgres.TransactionSql): Promise<Record<string, number>>
}

export function composeDomains<const D extends readonly DomainDefinition[]>(domains: D): Composition<D> {
  const names = new Set<string>()
  for (const d of domains) {
    if (names.has(d.name)) throw new Error(`Domain listed twice: ${d.name}`)
    names.add(d.name)
  }
  const registry = new Registry(
    domains.flatMap((d) => d.operations),
    domains.flatMap((d) => d.resources ?? []),
    domains.filter((d) => d.operations.some((op) => op.mcp !== false)).map((d) => ({ name: d.name, description: d.description })),
    [...new Set(domains.flatMap((d) => d.events ?? []))],
  )
  const workflows = domains.flatMap((d) => d.workflows ?? [])
  const types = new Set<string>()
  for (const w of workflows) {
    const type = workflowType(w)
    if (types.has(type)) throw new Error(`Workflow defined twice: ${type}`)
    types.add(type)
  }

  const internalEvents = [...new Set(domains.flatMap((d) => d.internalEvents ?? []))]
  const reactions = new EventReactions(domains.flatMap((d) => d.reactions ?? []), { recorded: registry.events, internal: internalEvents })

  const counted = Object.entries(Object.assign({}, ...domains.map((d) => d.usageCounts ?? {})) as Record<string, string>)
  const countQuery = counted.length ? `select ${counted.map(([name, q]) => `(${q}) as "${name}"`).join(', ')}` : null

  return {
    domains,
    registry,
    workflows,
    reactions,
    internalEvents,
    createActivities(deps) {
      const all: Record<string, unknown> = {}
      for (const d of domains) {
        for (const [name, fn] of Object.entries(d.activities?.(deps) ?? {})) {
          if (name in all) throw new Error(`Activity defined twice: ${name} (domain ${d.name})`)
          all[name] = fn
        }
      }
      return all as ActivitiesOf<D>
    },
    async countResources(tx) {
      if (!countQuery) return {}
      // All counts in one statement, planned once per connection; RLS scopes each to the company.
      const [row] = await tx.unsafe<Record<string, number>[]>(countQuery, [], { prepare: true })
      return row ?? {}
    },
  }
}
