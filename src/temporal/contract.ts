// Typed workflow contracts. Each workflow has exactly one definition: the workflow function itself
// (its name is the Temporal workflow type), how its id is built from business keys, and the id
// reuse and conflict policies that make a second start harmless. Starting one goes through
// workflowStart(definition, input), so a wrong input does not type-check and no id is hand-built.
import type postgres from 'postgres'
import type { CompanyScoped } from './search-attributes.js'

/** What a second start with the same id does while the first run is still open. */
export type IdConflictPolicy = 'USE_EXISTING' | 'FAIL'
/**
 * Whether an id may start again once its run has closed: never (REJECT_DUPLICATE), only after a
 * failure, termination or timeout (ALLOW_DUPLICATE_FAILED_ONLY), or always (ALLOW_DUPLICATE).
 */
export type IdReusePolicy = 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY' | 'ALLOW_DUPLICATE'

export interface WorkflowDefinition<I extends CompanyScoped = CompanyScoped, R = unknown, A = unknown> {
  /** The workflow function, exported under the same name by src/domains/<domain>/workflows/<its-name>.ts. */
  workflow: (input: I) => Promise<R>
  /** The id, from business keys only (never the clock), always prefixed by the company. */
  id: (input: I) => string
  idConflictPolicy: IdConflictPolicy
  idReusePolicy: IdReusePolicy
  /** One sentence for operators: what the workflow does and why its id policy is what it is. */
  description: string
  /**
   * Type only, never set: the activities the workflow calls (its own XActivities interface), so the
   * worker's activity set is checked against every composed workflow (activities/index.ts).
   */
  readonly activities?: A
}

export type AnyWorkflowDefinition = WorkflowDefinition<any, any, any>

/**
 * One workflow's definition, typed by the activity interface it declares:
 * `defineWorkflow<QuoteFollowUpActivities>()({ workflow: quoteFollowUp, id: ..., ... })`.
 */
export function defineWorkflow<A>() {
  return <I extends CompanyScoped, R>(definition: Omit<WorkflowDefinition<I, R, A>, 'activities'>): WorkflowDefinition<I, R, A> => definition
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never

/** Every activity a list of workflow definitions calls: the intersection of their activity interfaces. */
export type ActivitiesNeededBy<W extends readonly AnyWorkflowDefinition[]> = UnionToIntersection<
  W[number] extends infer D ? (D extends WorkflowDefinition<any, any, infer A> ? A : never) : never
>

/** What the workflow outbox stores for one start. */
export interface WorkflowSpec {
  companyId: string
  workflowType: string
  workflowId: string
  input: unknown
}

/** The start of `definition` with `input`: type, id and input all come from the definition. */
export function workflowStart<I extends CompanyScoped>(definition: WorkflowDefinition<I, unknown>, input: I): WorkflowSpec {
  return { companyId: input.companyId, workflowType: workflowType(definition), workflowId: definition.id(input), input }
}

export function workflowType(definition: AnyWorkflowDefinition): string {
  return definition.workflow.name
}

/**
 * A workflow id as a SQL expression, for a query that matches runs to rows by id: the workflow's
 * own id builder runs with a placeholder for each key given as a column (tx`i.id`), and SQL puts
 * the column's text in its place. So no query spells an id's format itself.
 */
export function workflowIdSql<K extends object>(
  tx: postgres.TransactionSql,
  build: (keys: K) => string,
  keys: { [P in keyof K]: K[P] | postgres.PendingQuery<postgres.Row[]> },
): postgres.PendingQuery<postgres.Row[]> {
  const columns: [string, postgres.PendingQuery<postgres.Row[]>][] = []
  const values: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(keys)) {
    if (isFragment(value)) {
      columns.push([`{${name}}`, value])
      values[name] = `{${name}}`
    } else values[name] = value
  }
  let expression = tx`${build(values as K)}::text`
  for (const [placeholder, column] of columns) expression = tx`replace(${expression}, ${placeholder}, (${column})::text)`
  return expression
}

const isFragment = (value: unknown): value is postgres.PendingQuery<postgres.Row[]> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
