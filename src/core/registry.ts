// The one list of operations. Transports, OpenAPI, /docs and the discovery documents read it;
// a new domain appears everywhere by adding its operations here.
import type { AnyOperation } from './operation.js'
import { onboardingOperations } from '../domains/onboarding/operations.js'
import { billingOperations } from '../domains/billing/operations.js'
import { keyOperations } from '../domains/keys/operations.js'

export class Registry {
  private readonly byName = new Map<string, AnyOperation>()

  constructor(readonly operations: AnyOperation[]) {
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
}

export const coreOperations: AnyOperation[] = [...onboardingOperations, ...billingOperations, ...keyOperations]

export function createRegistry(extra: AnyOperation[] = []): Registry {
  return new Registry([...coreOperations, ...extra])
}
