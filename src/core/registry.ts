// The one list of operations. Transports, OpenAPI, /docs and the discovery documents read it;
// a new domain appears everywhere by adding its operations here.
import type { AnyOperation } from './operation.js'
import { onboardingOperations } from '../domains/onboarding/operations.js'
import { billingOperations } from '../domains/billing/operations.js'
import { keyOperations } from '../domains/keys/operations.js'
import { leadOperations } from '../domains/leads/operations.js'
import { automationOperations } from '../domains/automations/operations.js'
import { plannedTools } from '../domains/planned/index.js'
import { serviceOperations } from '../domains/services/operations.js'
import { quoteOperations } from '../domains/quotes/operations.js'
import { jobOperations } from '../domains/jobs/operations.js'
import { clientOperations } from '../domains/clients/operations.js'

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

/** The spec's domain order (section 4, "Tools, by domain"); REST-only domains first. */
const DOMAIN_ORDER = [
  'onboarding', 'keys', 'leads', 'quotes', 'jobs', 'invoicing', 'cashflow', 'reviews', 'services', 'analytics', 'reminders',
  'comms', 'clients', 'billing', 'ecosystem', 'webhooks', 'subcontractors', 'compliance', 'marketing', 'pricebook',
  'payments', 'formation', 'lifecycle', 'hiring', 'funding', 'scaling', 'operator', 'integrations', 'wallet',
  'documents', 'workflows',
]

/** Stable: grouped by domain in spec order, each domain's operations in definition order. */
function orderLikeSpec(ops: AnyOperation[]): AnyOperation[] {
  const rank = (d: string) => DOMAIN_ORDER.indexOf(d)
  return ops.map((op, i) => ({ op, i })).sort((a, b) => rank(a.op.domain) - rank(b.op.domain) || a.i - b.i).map((x) => x.op)
}

export const coreOperations: AnyOperation[] = orderLikeSpec([
  ...onboardingOperations, ...keyOperations, ...leadOperations, ...quoteOperations, ...jobOperations, ...serviceOperations,
  ...clientOperations, ...billingOperations, ...automationOperations, ...plannedTools,
])

export function createRegistry(extra: AnyOperation[] = []): Registry {
  return new Registry([...coreOperations, ...extra])
}
