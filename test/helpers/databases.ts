// Test databases. Migrating a fresh database takes seconds, so the run migrates one template database
// once (global setup) and each test app's database is a copy of it: `CREATE DATABASE ... TEMPLATE`
// copies every table, function, grant and the migrations table, so the service's own migrate step
// at start finds nothing to apply. The app role (tradie_app) is cluster-wide and made by the first
// migration; its grants live in the copied catalogue.
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

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

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

/** A migrated database that copies are made from; its name is unique to this run (runs share a server). */
export async function createTemplateDatabase(): Promise<TemplateDatabase> {
  const name = `tradie_template_${randomBytes(5).toString('hex')}`
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
 * the template (SQLSTATE 55006, e.g. a refresh under way) is retried.
 */
export async function createDatabaseFromTemplate(name: string, template: string): Promise<void> {
  await asAdmin(async (admin) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.unsafe(`create database ${quoted(name)} template ${quoted(template)}`)
        return
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error
        await new Promise((r) => setTimeout(r, 100))
      }
    }
  })
}

export async function dropDatabase(name: string): Promise<void> {
  await asAdmin((admin) => admin.unsafe(`drop database if exists ${quoted(name)} with (force)`))
}
