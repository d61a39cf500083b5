// Database access. Two pools: the owner (migrations only) and the app role, which Row Level
// Security applies to. Domain code reaches tenant rows only through withTenant().
import postgres from 'postgres'

export type Sql = postgres.Sql
/** A transaction handle or the pool; query functions accept either (postgres.js idiom). */
export type Tx = postgres.TransactionSql | postgres.Sql

export interface Db {
  /** The RLS-bound pool. */
  app: Sql
  close(): Promise<void>
}

export function connect(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    transform: { undefined: null },
    onnotice: () => {},
    connection: { application_name: 'tradie-ops' },
  })
}

export function createDb(appUrl: string, options: { max?: number } = {}): Db {
  const app = connect(appUrl, options)
  return { app, close: () => app.end({ timeout: 5 }) }
}

/**
 * Runs fn in one transaction scoped to a company: every tenant table's policy compares against
 * app.company_id, set here transaction-locally, so a forgotten WHERE clause still cannot leak rows.
 */
export async function withTenant<T>(db: Db, companyId: string, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  const result = await db.app.begin(async (tx) => {
    // Not awaited on its own: postgres.js pipelines it ahead of fn's first query on this
    // connection, saving a round trip; an error still fails the transaction.
    const scoped = tx`select set_config('app.company_id', ${companyId}, true)`.execute()
    const [, value] = await Promise.all([scoped, fn(tx)])
    return value
  })
  return result as T
}

/** Postgres unique_violation, e.g. an email that is already registered. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint_name?: string }
  return e?.code === '23505' && (constraint === undefined || e.constraint_name === constraint)
}
