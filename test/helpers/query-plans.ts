// The plans Postgres actually chose for the queries some code ran, captured with auto_explain on
// one connection acting as the app role (so row level security applies as in the service).
import { connect } from '../../src/db/sql.js'
import type { Deps } from '../../src/core/deps.js'
import type { TestApp } from './app.js'

export interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Name'?: string
  'Index Cond'?: string
  'Recheck Cond'?: string
  Plans?: PlanNode[]
}

export interface CapturedPlan {
  query: string
  nodes: PlanNode[]
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)]
}

/**
 * Runs `run` with the app's deps on a single superuser connection that has loaded auto_explain and
 * then become tradie_app, and returns the plan of every statement it executed (nested ones too:
 * the bodies of SQL functions it called).
 */
export async function capturePlans(app: TestApp, run: (deps: Deps) => Promise<unknown>): Promise<CapturedPlan[]> {
  const notices: string[] = []
  const sql = connect(app.config.DATABASE_URL, { max: 1, onnotice: (n) => notices.push(String(n.message)) })
  try {
    // Loading a library and these settings need a superuser; the role switch comes last.
    await sql`load 'auto_explain'`
    for (const setting of ['log_min_duration = 0', 'log_level = notice', 'log_format = json', 'log_nested_statements = on']) {
      await sql.unsafe(`set auto_explain.${setting}`)
    }
    await sql`set role tradie_app`
    await run({ ...app.runtime.deps, db: { app: sql, listener: sql, close: async () => {} } })
  } finally {
    await sql.end()
  }
  return notices
    .filter((n) => n.includes('"Plan"'))
    .map((n) => JSON.parse(n.slice(n.indexOf('{'))) as { 'Query Text': string; Plan: PlanNode })
    .map((p) => ({ query: p['Query Text'], nodes: flatten(p.Plan) }))
}
