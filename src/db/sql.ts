// Database access. Two pools: the owner (migrations only) and the app role, which Row Level
// Security applies to. Domain code reaches tenant rows only through withTenant() (and readWithTenant),
// or through a SECURITY INVOKER function that sets the company itself (lead_list_page, migration 049).
import { claimCharge } from '../core/charge-scope.js'
import { heldClaimKey } from '../core/claim-scope.js'
import postgres from 'postgres'
import { isUuid } from '../core/uuid.js'
import { arrayTypes } from './array-types.js'
import { traceQueries } from './query-spans.js'

export type Sql = postgres.Sql
/** A transaction handle or the pool; query functions accept either (postgres.js idiom). */
export type Tx = postgres.TransactionSql | postgres.Sql

export interface Db {
  /** The RLS-bound pool. */
  app: Sql
  /**
   * Whose listen() to call: the app pool itself, or a client of its own on DATABASE_LISTEN_URL when the
   * pool goes through a transaction-mode pooler (postgres.js gives LISTEN a dedicated connection
   * either way; this decides where that connection goes). Never used for queries.
   */
  listener: Sql
  close(): Promise<void>
}

export interface ConnectOptions {
  max?: number
  /** Named prepared statements (postgres.js's default); false behind a pooler that does not track them. */
  prepare?: boolean
  /** Notices from the server (auto_explain's plans in tests); dropped by default. */
  onnotice?: (notice: postgres.Notice) => void
}

/**
 * The longest a closed connection waits before it connects again, in seconds. postgres.js's default
 * backoff is (0.5 to 1) * min(3^n / 100, 20) s, where n counts every connection of the pool that
 * closed with a socket error since one last completed its startup: an established connection whose
 * backend is terminated while a query is being written to it closes with ECONNRESET, so one round of
 * terminated backends (a restart, a failover) takes a pool of 8 to n = 8. Each connection keeps the
 * delay computed when it closed, and a query handed to it waits that delay out before the connect
 * even begins: the last ones to close held their next request 10 to 20 s
 * (test/database-restart-process.test.ts, about 1 run in 5). Capped, a request waits at most this
 * for a reconnect and is then answered, or refused as database_unavailable. The first retries keep
 * the driver's short, jittered delays, and a database that refuses connections is still tried by
 * each connection no more often than every half second.
 */
const MAX_RECONNECT_DELAY_SECONDS = 1

/** The driver's default backoff (see above), capped at MAX_RECONNECT_DELAY_SECONDS. */
const reconnectDelaySeconds = (retries: number) =>
  (0.5 + Math.random() / 2) * Math.min(3 ** retries / 100, MAX_RECONNECT_DELAY_SECONDS)

/**
 * Every connection the project opens (service, migrations, tests, bench) is made here, so they all
 * behave the same when the database goes away. fetch_types is off: the driver's own pg_type lookup
 * on each new connection is a promise nobody awaits, and a database restart during it ended the
 * process with an unhandled rejection; the array types the code uses are declared instead
 * (array-types.ts), which also saves that round trip on every (re)connection. The reconnect delay
 * is capped (reconnectDelaySeconds above).
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  const sql = postgres(url, {
    max: options.max ?? 10,
    prepare: options.prepare ?? true,
    transform: { undefined: null },
    onnotice: options.onnotice ?? (() => {}),
    connection: { application_name: 'tradie-ops' },
    fetch_types: false,
    types: arrayTypes,
    backoff: reconnectDelaySeconds,
  })
  // One span per statement when tracing is on (query-spans.ts); wrapped once per process.
  traceQueries(sql)
  return sql
}

export function createDb(appUrl: string, options: { max?: number; prepare?: boolean; listenUrl?: string } = {}): Db {
  const app = connect(appUrl, options)
  // postgres.js opens a listener's connection only at its first listen(); max 1 is never used for queries.
  const listener = options.listenUrl ? connect(options.listenUrl, { max: 1, prepare: options.prepare }) : app
  return {
    app,
    listener,
    async close() {
      await app.end({ timeout: 5 })
      if (listener !== app) await listener.end({ timeout: 5 })
    },
  }
}

/**
 * BEGIN and the tenant setting as one simple-protocol message (one query for the driver to build
 * and parse, not two). The id is spliced into the text, so only a well-formed UUID is accepted.
 * Not `SET LOCAL app.company_id = '...'`: a few microseconds cheaper (no plan), but pg_stat_statements
 * keeps a utility statement's literals, so it would hold one entry per company and crowd out the
 * rest; set_config's arguments are normalised into one entry.
 */
function openTenantTransaction(companyId: string): string {
  if (!isUuid(companyId)) throw new Error(`withTenant: company id ${JSON.stringify(companyId)} is not a UUID`)
  return `begin; select set_config('app.company_id', '${companyId}', true)`
}

/**
 * Runs fn in one transaction scoped to a company: every tenant table's policy compares against
 * app.company_id, set here transaction-locally, so a forgotten WHERE clause still cannot leak rows.
 *
 * Two round trips for a typical read: BEGIN and the tenant setting are not awaited on their own but
 * pipelined ahead of fn's first queries on the reserved connection, then COMMIT. (postgres.js's
 * begin() would wait for BEGIN first.) fn gets the reserved connection as its transaction handle;
 * it has no savepoint() method: use inSavepoint below.
 */
export async function withTenant<T>(db: Db, companyId: string, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  const conn = await db.app.reserve()
  try {
    const opened = conn.unsafe(openTenantTransaction(companyId)).execute()
    // A write tool call's charge goes first in its first transaction (core/charge-scope.ts).
    const charge = claimCharge(companyId)
    // Both settled before deciding: fn must be done with the connection before it is rolled back and released.
    // (async () => ...) turns a synchronous throw into a rejection, so it is rolled back like any other.
    const running = (async () => {
      if (charge) await charge.take(conn as unknown as postgres.TransactionSql)
      return fn(conn as unknown as postgres.TransactionSql)
    })()
    const [opening, ran] = await Promise.allSettled([opened, running])
    if (opening.status === 'rejected' || ran.status === 'rejected') {
      await conn`rollback`.catch(() => {})
      throw opening.status === 'rejected' ? opening.reason : (ran as PromiseRejectedResult).reason
    }
    // A keyed write call's claim is marked in each of its transactions that changed anything, sent
    // with COMMIT (core/claim-scope.ts): txid_current_if_assigned() is null while nothing was written.
    const claimKey = heldClaimKey(companyId)
    const marking = claimKey
      ? conn`update idempotency_keys set wrote_at = coalesce(wrote_at, now())
             where key = ${claimKey} and state = 'running' and txid_current_if_assigned() is not null`.execute().then(() => null, (error: unknown) => error)
      : null
    const committed = await conn`commit`
    const markFailed = await marking
    if (markFailed) throw markFailed
    // A query fn started but did not await may have failed: Postgres then answers COMMIT with
    // ROLLBACK. postgres.js's begin() throws in that case too; so do we.
    if (committed.command === 'ROLLBACK') throw new Error('withTenant: the transaction was rolled back because one of its queries failed')
    if (charge) charge.committed = true
    return ran.value
  } finally {
    conn.release()
  }
}

/**
 * withTenant for a read that is a fixed set of statements (a list page and its count): `statements`
 * builds them, unsent, and they go out in one write with the transaction around them, BEGIN and
 * the tenant setting first and COMMIT last, so the read is one round trip instead of two (withTenant
 * waits for its reads before sending COMMIT). The same transaction, setting and RLS as withTenant.
 * The statements are sent here, in order, so none can reach Postgres after COMMIT (outside the
 * transaction, where no company is set); their results come back in the same order.
 */
export async function readWithTenant<Q extends readonly { execute(): PromiseLike<unknown> }[]>(
  db: Db,
  companyId: string,
  statements: (tx: postgres.TransactionSql) => [...Q],
): Promise<{ [K in keyof Q]: Awaited<Q[K]> }> {
  const conn = await db.app.reserve()
  try {
    const sent: PromiseLike<unknown>[] = [conn.unsafe(openTenantTransaction(companyId)).execute()]
    try {
      for (const statement of statements(conn as unknown as postgres.TransactionSql)) sent.push(statement.execute())
    } catch (error) {
      sent.push(Promise.reject(error)) // a statement that could not be built: the transaction is rolled back below
    }
    // postgres.js writes an executed query a microtask later, in the order execute() was called.
    const committing = conn`commit`.execute()
    const [settled, committed] = await Promise.all([Promise.allSettled(sent), Promise.allSettled([committing])])
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
    if (failed) {
      // COMMIT of a failed transaction answers ROLLBACK; this makes sure it is over whatever happened.
      await conn`rollback`.catch(() => {})
      throw failed.reason
    }
    if (committed[0]!.status === 'rejected') throw committed[0]!.reason
    if (committed[0]!.value.command === 'ROLLBACK') throw new Error('readWithTenant: the transaction was rolled back because one of its queries failed')
    return settled.slice(1).map((s) => (s as PromiseFulfilledResult<unknown>).value) as { [K in keyof Q]: Awaited<Q[K]> }
  } finally {
    conn.release()
  }
}

/** Postgres unique_violation, e.g. an email that is already registered. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint_name?: string }
  return e?.code === '23505' && (constraint === undefined || e.constraint_name === constraint)
}

/**
 * fn inside a savepoint of a withTenant transaction (whose handle has no savepoint() method): what fn
 * changed is kept when it returns and undone when it throws, the transaction staying usable; the
 * error is rethrown (the caller decides what it means). `name` is a fixed identifier of the caller.
 */
export async function inSavepoint<T>(tx: postgres.TransactionSql, name: string, fn: () => Promise<T>): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`inSavepoint: ${JSON.stringify(name)} is not a savepoint name`)
  await tx.unsafe(`savepoint ${name}`)
  let result: T
  try {
    result = await fn()
  } catch (error) {
    // A failed rollback (the connection is gone) must not hide why fn failed.
    await tx.unsafe(`rollback to savepoint ${name}`).catch(() => {})
    throw error
  }
  await tx.unsafe(`release savepoint ${name}`)
  return result
}
