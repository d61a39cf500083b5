// The composed catalogue: every operation, MCP resource, toolset and event, in the order of the
// domain list. Transports, OpenAPI, /docs and the discovery documents read it. It is built from
// the domain list by composeDomains() (core/composition.ts); core itself names no domain.
import type { AnyOperation } from './operation.js'
import type { McpResource } from './domain.js'

export interface Toolset {
  name: string
  description: string
}

export class Registry {
  private readonly byName = new Map<string, AnyOperation>()

  constructor(
    readonly operations: AnyOperation[],
    readonly resources: McpResource[] = [],
    readonly toolsets: Toolset[] = [],
    readonly events: readonly string[] = [],
  ) {
    for (const op of operations) {
      if (this.byName.has(op.name)) throw new Error(`Operation defined twice: ${op.name}`)
      this.byName.set(op.name, op)
    }
  }

  get(name: string): AnyOperation | undefined {
    return this.byName.get(name)
  }

  restOperations(): AnyOperation[] {
    return this.operations.filter((op) => op.rest)
  }

  mcpTools(): AnyOperation[] {
    return this.operations.filter((op) => op.mcp !== false)
  }

  /** The same catalogue plus operations registered only here (tests add probes this way). */
  with(extra: AnyOperation[]): Registry {
    return extra.length ? new Registry([...this.operations, ...extra], this.resources, this.toolsets, this.events) : this
  }
}
