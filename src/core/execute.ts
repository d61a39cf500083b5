// The one execution pipeline. REST and MCP both reach every operation through execute(); they
// only translate HTTP or JSON-RPC in and out. Steps, in order: authenticate (the transport's own
// access rule included), authorise (scope, permission, plan feature), count toward the monthly
// quota, pre-check, names and validation, idempotency, cost, run, output check, audit. Domain
// events are written by the services in the same transaction as the change they describe.
import type { Feature, Principal } from './access.js'
import { authorize, countApiCall } from './auth.js'
import type { CreditReceipt, Deps } from './deps.js'
import { runWithCharge, type PendingCharge } from './charge-scope.js'
import { runHoldingClaim } from './claim-scope.js'
import { AppError, fromDatabaseOutage, fromDataException } from './errors.js'
import { metricsOf, type Metrics } from './metrics.js'
import type { Span } from '@opentelemetry/api'
import { withSpan } from '../tracing.js'
import { acceptAliases } from './aliases.js'
import { guardInput } from './input-guard.js'
import { checkIdempotencyKey, claimIdempotencyKey, completeIdempotencyKey, keepClaimAlive, releaseIdempotencyKey, requestHash } from './idempotency.js'
import type { AnyOperation, OperationContext } from './operation.js'
import { describeErrors, parseInput, validatorFor } from './validation.js'

export interface ExecuteContext {
  deps: Deps
  transport: OperationContext['transport']
  requestId: string
  clientIp: string
  /**
   * Resolves the caller's key and applies the transport's own access rule
   * (MCP needs mcpAccess). Errors thrown here are marked `accessError` so a transport can answer
   * them at its own level (JSON-RPC errors for MCP). Not called for public operations.
   */
  authenticate(): Promise<Principal>
  /** A plan feature this binding needs on top of the operation's own (REST writes need restWrite). */
  bindingFeature?: Feature
  /** Query-string and path values are strings: convert them to the schema's types. */
  convert?: boolean
  /** The caller's idempotency key as sent, and where it came from (for the error message). */
  idempotency?: { key: unknown; field: string }
  /** HTTP status of a success (REST bindings say 201 for a create). */
  successStatus?: number
}

export interface Executed {
  output: unknown
  status: number
  /** The stored first response of this idempotency key, replayed. */
  replayed: boolean
}

/** Marks an error raised while establishing who the caller is. */
export function accessError(error: unknown): unknown {
  if (error instanceof AppError) Object.assign(error, { accessError: true })
  return error
}

export function isAccessError(error: unknown): boolean {
  return error instanceof AppError && (error as AppError & { accessError?: boolean }).accessError === true
}

export const isWrite = (op: AnyOperation) => op.annotations.readOnlyHint !== true

/**
 * The way out of a used-up quota (billing, usage, checkout, portal) is declared on its REST binding
 * and holds on every transport: those calls are not counted, so they still answer at the limit.
 */
export const countsTowardQuota = (op: AnyOperation) => op.rest?.countsTowardQuota !== false

/**
 * Runs the pipeline, counted and timed (tradie_requests_total, tradie_request_duration_seconds), in
 * the operation's span when tracing is on (its SQL and workflow starts are its children).
 */
export function execute(op: AnyOperation, ctx: ExecuteContext, raw: Record<string, unknown>): Promise<Executed> {
  return withSpan(`operation ${op.name}`, { operation: op.name, transport: ctx.transport }, (span) => counted(op, ctx, raw, span))
}

async function counted(op: AnyOperation, ctx: ExecuteContext, raw: Record<string, unknown>, span: Span | null): Promise<Executed> {
  const metrics = metricsOf(ctx.deps)
  const started = performance.now()
  let status = 500
  try {
    const executed = await pipeline(op, ctx, raw, metrics)
    status = executed.status
    return executed
  } catch (error) {
    status = statusOf(error)
    if (error instanceof AppError && error.code === 'rate_limited') metrics.quotaRefusals.inc({ limit: refusedLimit(error) })
    throw error
  } finally {
    metrics.requests.inc({ operation: op.name, transport: ctx.transport, status: String(status) })
    span?.setAttribute('status', status)
    metrics.duration.observe({ operation: op.name, transport: ctx.transport }, (performance.now() - started) / 1000)
  }
}

/** The HTTP status the transport answers with (MCP answers the same error as an isError result). */
function statusOf(error: unknown): number {
  if (error instanceof AppError) return error.status
  return (fromDataException(error) ?? fromDatabaseOutage(error))?.status ?? 500
}

// Which limit refused the call: the stage marks it (quotaStage below), a message or LLM quota says
// its metric in the error, anything else (the onboarding limit, a provider's own) is "other".
const quotaStage = new WeakMap<AppError, string>()

function refusedLimit(error: AppError): string {
  const metric = (error.extra.limit as { metric?: unknown } | undefined)?.metric
  return quotaStage.get(error) ?? (typeof metric === 'string' ? metric : 'other')
}

function markLimit(error: unknown, limit: string): unknown {
  if (error instanceof AppError && error.code === 'rate_limited') quotaStage.set(error, limit)
  return error
}

async function pipeline(op: AnyOperation, ctx: ExecuteContext, raw: Record<string, unknown>, metrics: Metrics): Promise<Executed> {
  const opCtx: OperationContext = { deps: ctx.deps, principal: null, requestId: ctx.requestId, clientIp: ctx.clientIp, transport: ctx.transport }
  if (op.access !== 'public') {
    try {
      opCtx.principal = await ctx.authenticate()
    } catch (error) {
      // The only refusal while authenticating is the key's per-minute burst limit.
      throw accessError(markLimit(error, 'burst'))
    }
    authorize(op.access, opCtx.principal, ctx.bindingFeature)
    // Counted only now that the call is allowed: a 401, 403 or 429 never uses up quota.
    if (countsTowardQuota(op)) {
      try {
        await countApiCall(ctx.deps, opCtx.principal)
      } catch (error) {
        throw accessError(markLimit(error, 'api_calls'))
      }
    }
  }
  // Before anything reads the input: bounded depth and size, text Postgres can store.
  guardInput(raw)
  if (op.precheck) await op.precheck(opCtx, raw)
  const input = parseInput<Record<string, unknown>>(op.input, acceptAliases(op.input, raw), { convert: ctx.convert })
  const status = ctx.successStatus ?? 200

  const principal = opCtx.principal
  const sent = ctx.idempotency ? checkIdempotencyKey(ctx.idempotency.key, ctx.idempotency.field) : null
  const key = principal && isWrite(op) ? sent : null
  let stopClaimBeats = () => {}
  if (key) {
    const claim = await claimIdempotencyKey(ctx.deps, principal!.companyId, key, op.name, requestHash(op.name, input))
    if (claim.kind === 'replay') {
      audit(ctx, op, principal, 'replayed')
      return { output: claim.response.output, status: claim.response.status, replayed: true }
    }
    // Started here, outside runWithCharge below: a timer keeps the async context it was made in, and a
    // beat's transaction must never be the one that takes the call's charge (core/charge-scope.ts).
    stopClaimBeats = keepClaimAlive(ctx.deps, principal!.companyId, key)
  }

  let output: unknown
  let receipt: CreditReceipt | null = null
  let pending: PendingCharge | null = null
  try {
    // Cost, by op.cost, after a replay has answered (a replay is never charged twice). A write is
    // charged in its own transaction (core/charge-scope.ts); a read before it runs, given back below
    // if it fails. A write whose change did not commit in a transaction of its company (a dry run)
    // is charged once it returns.
    const call = { principal, operation: op, transport: ctx.transport }
    pending = isWrite(op) ? (ctx.deps.credits?.pending(call) ?? null) : null
    if (!isWrite(op)) receipt = (await ctx.deps.credits?.charge(call)) ?? null
    const run = () => (pending ? runWithCharge(pending, () => op.run(opCtx, input as never)) : op.run(opCtx, input as never))
    // A keyed write's transactions mark its claim when they commit a change (core/claim-scope.ts).
    output = await (key ? runHoldingClaim({ companyId: principal!.companyId, key }, run) : run())
    if (pending && !pending.committed) await ctx.deps.credits!.charge(call)
    // Counted once the call succeeded: a failed call's charge is given back below.
    if (receipt || pending) {
      metrics.walletCharges.inc({ cost: op.cost })
      metrics.walletChargeCents.inc({ cost: op.cost }, receipt?.cents ?? pending!.cents)
    }
  } catch (thrown) {
    // A write whose charge committed with an earlier transaction of the call, then failed: given back.
    if (pending?.committed && pending.entryId) receipt = { companyId: pending.companyId, entryId: pending.entryId, cents: pending.cents, operation: pending.operation }
    if (receipt) await ctx.deps.credits!.refund(receipt).catch((err: unknown) => ctx.deps.logger.error({ err, operation: op.name, requestId: ctx.requestId }, 'refund of a failed call failed'))
    const dataException = fromDataException(thrown)
    if (dataException) ctx.deps.logger.warn({ err: thrown, operation: op.name, requestId: ctx.requestId }, 'database refused an input value')
    const error = dataException ?? thrown
    if (key) await releaseIdempotencyKey(ctx.deps, principal!.companyId, key).catch(() => {})
    audit(ctx, op, principal, error instanceof AppError ? error.code : 'internal_error')
    throw error
  } finally {
    // The run is over either way: the claim is completed below or was released above.
    stopClaimBeats()
  }
  checkOutput(ctx, op, output)
  if (key) {
    // The change has committed: its caller gets the answer even if it cannot be kept for a retry
    // (a retry is then told the answer was lost, never run again: core/claim-scope.ts).
    await completeIdempotencyKey(ctx.deps, principal!.companyId, key, { status, output }).catch((err: unknown) =>
      ctx.deps.logger.error({ err, operation: op.name, requestId: ctx.requestId }, 'the idempotency key\'s response could not be kept; a retry with it will be told the answer was lost'))
  }
  audit(ctx, op, principal, 'ok')
  return { output, status, replayed: false }
}

// Checking a result costs about as much as producing it for a list page (50 rows of date-time
// formats). Writes are always checked; a read is checked on each of its first calls in this
// process, then on one call in OUTPUT_SAMPLE_EVERY: a read that breaks its schema does so for most
// data, so sampling still catches it, at a small fraction of the cost.
const OUTPUT_CHECKED_IN_FULL = 1000
const OUTPUT_SAMPLE_EVERY = 32
const readCalls = new WeakMap<AnyOperation, number>()

function shouldCheckOutput(op: AnyOperation): boolean {
  if (isWrite(op)) return true
  const calls = (readCalls.get(op) ?? 0) + 1
  readCalls.set(op, calls)
  return calls <= OUTPUT_CHECKED_IN_FULL || calls % OUTPUT_SAMPLE_EVERY === 0
}

/** A result that breaks its declared schema is our bug: logged loudly, still returned (the write happened). */
function checkOutput(ctx: ExecuteContext, op: AnyOperation, output: unknown): void {
  if (op.planned || !shouldCheckOutput(op) || validatorFor(op.output).Check(output)) return
  ctx.deps.logger.error({ operation: op.name, requestId: ctx.requestId, problems: describeErrors(op.output, output) }, 'operation output does not match its schema')
}

/** One line per write (and per replay): who changed what, through which transport, with what outcome. */
function audit(ctx: ExecuteContext, op: AnyOperation, principal: Principal | null, outcome: string): void {
  if (!isWrite(op)) return
  ctx.deps.logger.info({
    audit: true, operation: op.name, outcome, transport: ctx.transport, requestId: ctx.requestId,
    companyId: principal?.companyId, keyId: principal?.keyId,
  }, 'operation')
}
