import { loadConfig } from '../config.js'
import { ensureDatabase, migrate } from './migrate.js'

const config = loadConfig()
await ensureDatabase(config.DATABASE_URL)
const applied = await migrate(config.DATABASE_URL, { appRolePassword: config.APP_DB_PASSWORD })
console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date')
