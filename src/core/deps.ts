// What operations, services and activities need from the outside world, injected so tests use the
// same real parts with their own database, clock and task queue.
import type { PendingCharge } from './charge-scope.js'
import type postgres from 'postgres'
import type { Config } from '../config.js'
import type { Db } from '../db/sql.js'
import type { Logger } from '../logger.js'
import type { Clock } from './clock.js'
import type { Principal } from './access.js'
import type { CostClass } from './cost.js'
import type { PaymentsProvider } from '../providers/payments/provider.js'
import type { CryptoProvider } from '../providers/crypto/provider.js'
import type { StartAfterCommit, WorkflowDispatcher } from '../temporal/outbox.js'
import type { EventType } from './events.js'
import type { RegisterProvider } from '../providers/registers/provider.js'
import type { AccountingProviders } from '../providers/accounting/provider.js'
import type { LanguageModelProvider } from '../providers/llm/provider.js'
import type { SmsProvider } from '../providers/sms/provider.js'
import type { EmailProvider } from '../providers/email/provider.js'
import type { QueuedMessage } from '../../workflows/messages.js'

export interface Urls {
  /** {site_root}, e.g. https://app.example.com */
  siteRoot: string
  /** {base_url} = {site_root}/api/v1 */
  apiBase: string
}

/** What a charge took, to give it back if the call fails. */
export interface CreditReceipt { companyId: string; entryId: string; cents: number; operation: string }

/** Charges wallet credit for a call by its cost class (domains/wallet/meter.ts). */
export interface CreditMeter {
  /** null: the call is free (its class, its transport, or charging is off). Throws insufficient_credit. */
  charge(call: { principal: Principal | null; operation: { name: string; cost: CostClass }; transport: 'rest' | 'mcp' }): Promise<CreditReceipt | null>
  /** A write's charge for its own transaction to take (core/charge-scope.ts); null when the call is free. */
  pending(call: { principal: Principal | null; operation: { name: string; cost: CostClass }; transport: 'rest' | 'mcp' }): PendingCharge | null
  refund(receipt: CreditReceipt): Promise<void>
}

export interface Deps {
  config: Config
  db: Db
  clock: Clock
  logger: Logger
  urls: Urls
  payments: PaymentsProvider
  /** Crypto deposits into the wallet (the sandbox unless configured). */
  crypto: CryptoProvider
  /** Licence and ABN register checks (subcontractors); the default records details as not checked. */
  registers: RegisterProvider
  /** Accounting packages (integrations): Xero when configured; the others listed as not available. */
  accounting: AccountingProviders
  sms: SmsProvider
  /** The language model (marketing): an OpenAI-compatible endpoint when configured, else the local default. */
  llm: LanguageModelProvider
  email: EmailProvider
  workflows: WorkflowDispatcher
  /** The domains' reactions to domain events (EventReactions in core/reactions.ts), from the domain list. */
  reactions: ReactionDispatcher
  /** Record counts for GET /usage, from every domain's usageCounts (core/composition.ts). */
  countResources(tx: postgres.TransactionSql): Promise<Record<string, number>>
  /** Unset (tests of the pipeline alone): calls cost nothing. */
  credits?: CreditMeter
}

/**
 * State kept per running app (a cache, a limiter, a batching queue), made on first use. Tests run
 * several apps (instances) in one process, and each must behave like a separate instance, so the
 * state hangs off that app's deps rather than the module.
 */
export function onePerApp<D extends object, T>(create: (deps: D) => T): (deps: D) => T {
  const made = new WeakMap<D, T>()
  return (deps) => {
    let value = made.get(deps)
    if (value === undefined) {
      value = create(deps)
      made.set(deps, value)
    }
    return value
  }
}

/** A domain event as a service emits it (core/reactions.ts). */
export interface DomainEvent {
  companyId: string
  type: EventType
  entityType: string
  entityId: string
  /** Public events: the webhook payload. Internal events: what their reactions need. */
  payload: unknown
  at: Date
}

/** The transaction an event is emitted in, and where its after-commit work is queued. */
export interface EmitScope {
  deps: Deps
  tx: postgres.TransactionSql
  start: StartAfterCommit
  afterCommit(run: () => void | Promise<void>): void
}

/**
 * What deps.reactions does (EventReactions in core/reactions.ts implements it). Declared here, not
 * imported, because reactions.ts needs Deps: the two files would import each other.
 */
export interface ReactionDispatcher {
  emit(scope: EmitScope, event: DomainEvent): Promise<Record<string, unknown>>
  /** What the reactions to the event would send first (a dry run); nothing is written. */
  preview(scope: Omit<EmitScope, 'start' | 'afterCommit'>, event: DomainEvent): Promise<QueuedMessage[]>
}
