// A domain registers itself with one value. src/domains/index.ts lists the domains; the registry,
// activities, worker workflows, MCP resources, usage counts, toolset order and the event catalogue
// are all derived from that list (src/core/composition.ts). Nothing in src/core imports a domain.
import type { AnyOperation } from './operation.js'
import type { Deps } from './deps.js'
import type { Principal, Scope } from './access.js'
import type { AnyWorkflowDefinition } from '../temporal/contract.js'
import type { Reaction } from './reactions.js'

/** An MCP resource (service://...): the scope it needs and how to read it, or the capability that will provide it. */
export interface McpResource {
  uri: string
  name: string
  description: string
  scope?: Scope
  read?: (deps: Deps, principal: Principal) => Promise<unknown>
  capability?: string
}

/** Activity functions take one input object and return a promise (Temporal serialises both). */
export type ActivityFactory = (deps: Deps) => Record<string, (input: any) => Promise<unknown>>

export interface DomainDefinition {
  /** The toolset name: tools are <name>.<action>, and MCP clients filter by it. */
  name: string
  /** One line for the toolset listing. */
  description: string
  operations: AnyOperation[]
  resources?: McpResource[]
  activities?: ActivityFactory
  workflows?: readonly AnyWorkflowDefinition[]
  /** Domain events this domain writes to event_outbox (canonical dotted names): public, the webhook catalogue. */
  events?: readonly string[]
  /** Events this domain emits for reactions only (core/reactions.ts): never written, not webhooks. */
  internalEvents?: readonly string[]
  /** What this domain does when an event happens (core/reactions.ts), e.g. the automations starting a run. */
  reactions?: readonly Reaction[]
  /** Record counts shown in GET /usage: name -> a count query (RLS scopes it to the company). */
  usageCounts?: Record<string, string>
}

export function defineDomain<const D extends DomainDefinition>(domain: D): D {
  for (const op of domain.operations) {
    if (op.domain !== domain.name) throw new Error(`Operation ${op.name} says domain '${op.domain}' but is registered in '${domain.name}'`)
  }
  return domain
}
