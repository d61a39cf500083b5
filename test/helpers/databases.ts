// Test databases. Migrating a fresh database takes seconds, so the run migrates one template database
// once (global setup) and each test app's database is a copy of it: `CREATE DATABASE ... TEMPLATE`
// copies every table, function, grant and the migrations table, so the service's own migrate step
// at start finds nothing to apply. The app role (tradie_app) is cluster-wide and made by the first
// migration; its grants live in the copied catalogue.
//
// Dropping a database waits for a checkpoint (over a second on a busy server), so a test file does
// not drop its own: it renames it as retired (instant) and the run's global setup drops retired
// databases in the background, and whatever is left at teardown.
import { randomBytes } from 'node:crypto'
import { connect } from '../../src/db/sql.js'
import { ensureDatabase, migrate } from '../../src/db/migrate.js'

/** Owner connection to the test server's maintenance database; TEST_DATABASE_URL names another server. */
export const OWNER_BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** The owner URL of database `name` on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(OWNER_BASE)
  url.pathname = `/${name}`
  return url.toString()
}

/** Names of one run's databases (runs of other worktrees share the server; each keeps to its own). */
export const databaseNames = (run: string) => ({
  template: `tradie_template_${run}`,
  test: (suffix: string) => `tradie_test_${run}_${suffix}`,
  retired: (suffix: string) => `tradie_retired_${run}_${suffix}`,
})

export const newRunId = () => randomBytes(5).toString('hex')

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`
const IN_USE = '55006' // object_in_use: another session is connected to the database

async function asAdmin<T>(fn: (admin: ReturnType<typeof connect>) => Promise<T>): Promise<T> {
  const admin = connect(OWNER_BASE, { max: 1 })
  try {
    return await fn(admin)
  } finally {
    await admin.end()
  }
}

export interface TemplateDatabase {
  name: string
  /** Applies migrations added since (vitest watch mode reruns without a new global setup). */
  refresh(): Promise<void>
  drop(): Promise<void>
}

/** The run's migrated database that test databases are copied from. */
export async function createTemplateDatabase(run: string): Promise<TemplateDatabase> {
  const name = databaseNames(run).template
  // Copying fails while anyone is connected to the template, so connections are closed once it is
  // migrated (this also keeps autovacuum off it) and opened only to migrate it again.
  const allowConnections = (allow: boolean) => asAdmin((admin) => admin.unsafe(`alter database ${quoted(name)} with allow_connections ${allow}`))
  await ensureDatabase(databaseUrl(name))
  try {
    await migrate(databaseUrl(name))
    await allowConnections(false)
  } catch (error) {
    await dropDatabase(name)
    throw error
  }
  return {
    name,
    async refresh() {
      await allowConnections(true)
      await migrate(databaseUrl(name))
      await allowConnections(false)
    },
    drop: () => dropDatabase(name),
  }
}

/**
 * Creates database `name` as a copy of the template. Two test files may copy it at the same moment
 * (Postgres allows concurrent copies of one template); a copy refused because a session is still on
 * the template (a watch-mode refresh under way) is retried.
 */
export async function createDatabaseFromTemplate(name: string, template: string): Promise<void> {
  await asAdmin(async (admin) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.unsafe(`create database ${quoted(name)} template ${quoted(template)}`)
        return
      } catch (error) {
        if ((error as { code?: string }).code !== IN_USE || attempt >= 50) throw error
        await new Promise((r) => setTimeout(r, 100))
      }
    }
  })
}

/**
 * Hands a test database over to be dropped in the background (see the header). When a session is
 * still on it (a second app sharing it, a killed worker's backend not yet gone), it is dropped here
 * with force instead.
 */
export async function retireDatabase(name: string, retiredName: string): Promise<void> {
  await asAdmin(async (admin) => {
    try {
      await admin.unsafe(`alter database ${quoted(name)} rename to ${quoted(retiredName)}`)
    } catch (error) {
      if ((error as { code?: string }).code !== IN_USE) throw error
      await admin.unsafe(`drop database if exists ${quoted(name)} with (force)`)
    }
  })
}

export async function dropDatabase(name: string): Promise<void> {
  await asAdmin((admin) => admin.unsafe(`drop database if exists ${quoted(name)} with (force)`))
}

/**
 * Drops the run's retired databases as they appear, one at a time, until stopped; stop() then drops
 * every database of the run still there (retired, or left by a file that never stopped its app),
 * except the template (global setup drops it last).
 */
export function startDatabaseReaper(run: string, intervalMs = 1000): { stop(): Promise<void> } {
  const admin = connect(OWNER_BASE, { max: 1 })
  const like = (prefix: string) => `${prefix.replace(/_/g, '\\_')}%`
  const names = databaseNames(run)
  const drop = async (prefixes: string[]) => {
    for (const prefix of prefixes) {
      const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${like(prefix)}`
      for (const { datname } of rows) await admin.unsafe(`drop database if exists ${quoted(datname)} with (force)`)
    }
  }
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let pass: Promise<void> = Promise.resolve()
  const tick = () => {
    pass = drop([names.retired('')]).catch(() => {}) // a failed pass is tried again next tick and at stop
    void pass.then(() => {
      if (!stopped) timer = setTimeout(tick, intervalMs)
    })
  }
  timer = setTimeout(tick, intervalMs)
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await pass
      try {
        await drop([names.retired(''), names.test('')])
      } finally {
        await admin.end()
      }
    },
  }
}
