// One definition per operation. REST routes, OpenAPI, /docs, MCP tools/list and the well-known
// documents are all generated from these values; transports hold no business logic.
import type { Static, TSchema } from 'typebox'
import type { Feature, Permission, Principal, Scope } from './access.js'
import type { CostClass } from './cost.js'
import type { Deps } from './deps.js'
import { withNextStepsSchema, type NextStep } from './next-steps.js'

export type { CostClass }

export interface McpAnnotations {
  title?: string
  readOnlyHint?: boolean
  idempotentHint?: boolean
  destructiveHint?: boolean
  openWorldHint?: boolean
}

/** Access rule: 'public' needs no key; otherwise a key, optionally a scope, a permission and a plan feature. */
export type Access =
  | 'public'
  | { scope?: Scope; permission: Permission; feature?: Feature }

export interface RestBinding {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Relative to /api/v1, Koa-style params (/keys/:id). */
  path: string
  status?: number
  /** Plan feature REST callers additionally need (e.g. restWrite for POST /leads). */
  feature?: Feature
  /** Whether the call counts toward the monthly API quota (all authenticated calls do by default). */
  countsTowardQuota?: boolean
}

/** A binding's Koa path (/keys/:id) as OpenAPI and messages write it (/keys/{id}). */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}')
}

export interface OperationContext {
  deps: Deps
  principal: Principal | null
  requestId: string
  clientIp: string
  /** Which transport called: affects defaults such as a lead's source. */
  transport: 'rest' | 'mcp'
}

export interface Operation<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: string
  domain: string
  title: string
  description: string
  input: I
  output: O
  access: Access
  cost: CostClass
  annotations: McpAnnotations
  rest?: RestBinding
  /** Listed as an MCP tool (default true). Only onboarding is REST only: it is how a key is first obtained. */
  mcp?: boolean
  /** Set on tools whose domain is not built yet (see core/planned.ts). */
  planned?: { capability: string }
  /**
   * A tool the spec does not name says why it exists; every other tool must be one of the spec's
   * (test/catalogue.test.ts compares with the spec's list).
   */
  beyondSpec?: string
  /** Runs before schema validation, to turn a specific input problem into its own error code. */
  precheck?: (ctx: OperationContext, raw: Record<string, unknown>) => Promise<void> | void
  run(ctx: OperationContext, input: Static<I>): Promise<Static<O>>
  /**
   * What to do after this change (core/next-steps.ts), from its result and input: returned as
   * `next_steps` beside the output, whose schema gains the field. Every state-changing lifecycle
   * tool declares it (test/next-steps.test.ts).
   */
  nextSteps?(output: Static<O>, input: Static<I>): NextStep[]
}

export type AnyOperation = Operation<TSchema, TSchema>

/**
 * The beyondSpec reason of an operation the spec lists only over REST, or not at all, that is also a
 * tool: an agent with only an MCP client must be able to do everything (docs/decisions.md, "Every
 * operation a tool").
 */
export const AGENT_PARITY = 'Every operation is also a tool, so an agent with only an MCP client can do it.'

export function defineOperation<I extends TSchema, O extends TSchema>(op: Operation<I, O>): AnyOperation {
  if (!op.nextSteps) return op as unknown as AnyOperation
  const { run, nextSteps } = op
  return {
    ...op,
    output: withNextStepsSchema(op.output, op.name),
    async run(ctx: OperationContext, input: Static<I>) {
      const output = await run.call(op, ctx, input)
      return { ...output, next_steps: nextSteps.call(op, output, input) }
    },
  } as unknown as AnyOperation
}
