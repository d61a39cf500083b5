// Record counts shown in GET /usage. Each domain adds its table here; RLS scopes every count to the
// current company, and all counts come back in one query.
import type postgres from 'postgres'

const COUNTED: Record<string, string> = {
  users: 'select count(*)::int from users',
  api_keys: 'select count(*)::int from api_keys where revoked_at is null',
  leads: 'select count(*)::int from leads',
  communications: 'select count(*)::int from communications',
  quotes: 'select count(*)::int from quotes',
  jobs: 'select count(*)::int from jobs',
  services: 'select count(*)::int from services',
}

const query = `select ${Object.entries(COUNTED).map(([name, q]) => `(${q}) as "${name}"`).join(', ')}`

export async function countResources(tx: postgres.TransactionSql): Promise<Record<string, number>> {
  const [row] = await tx.unsafe<Record<string, number>[]>(query, [], { prepare: true }) // planned once per connection
  return row ?? {}
}
