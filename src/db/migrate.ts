// Numbered, forward-only SQL migrations (src/db/migrations/NNN.do.name.sql) applied by Postgrator
// under an advisory lock, so an API and a worker starting together do not race.
import Postgrator from 'postgrator'
import { fileURLToPath } from 'node:url'
import { connect } from './sql.js'
import { seedPricebookCatalogue } from './seed-pricebook.js'

const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url))
const LOCK_KEY = 727_001

/** Creates the database named in the URL when it does not exist (local development and tests). */
export async function ensureDatabase(ownerUrl: string): Promise<void> {
  const url = new URL(ownerUrl)
  const name = decodeURIComponent(url.pathname.slice(1))
  url.pathname = '/postgres'
  const sql = connect(url.toString(), { max: 1 })
  try {
    const [row] = await sql`select 1 as found from pg_database where datname = ${name}`
    if (!row) {
      try {
        await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`)
      } catch (error) {
        if ((error as { code?: string }).code !== '42P04') throw error // created meanwhile
      }
    }
  } finally {
    await sql.end()
  }
}

export async function migrate(ownerUrl: string, options: { appRolePassword?: string } = {}): Promise<string[]> {
  const sql = connect(ownerUrl, { max: 1 })
  const conn = await sql.reserve()
  try {
    await conn`select pg_advisory_lock(${LOCK_KEY})`
    const database = decodeURIComponent(new URL(ownerUrl).pathname.slice(1))
    const postgrator = new Postgrator({
      migrationPattern: `${migrationsDir}/*.do.*.sql`,
      driver: 'pg',
      database,
      schemaTable: 'schema_migrations',
      execQuery: async (query: string) => ({ rows: await conn.unsafe(query).simple() }),
    })
    const applied = await postgrator.migrate()
    // Shipped reference data the migrations' tables hold; a no-op when its file is unchanged.
    await seedPricebookCatalogue(conn)
    if (options.appRolePassword) {
      await conn.unsafe(`alter role tradie_app password '${options.appRolePassword.replace(/'/g, "''")}'`)
    }
    await conn`select pg_advisory_unlock(${LOCK_KEY})`
    return applied.map((m) => m.name ? `${m.version}.${m.name}` : String(m.version))
  } finally {
    conn.release()
    await sql.end()
  }
}
