// API keys beyond the onboarding one: an owner gives each agent only the scopes and permission it
// needs. (The spec leaves key assignment open; see docs/decisions.md.)
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import type { Permission, Principal, Scope } from '../../core/access.js'
import { AppError, notFound } from '../../core/errors.js'
import { generateApiKey } from '../../core/credentials.js'
import { withTenant } from '../../db/sql.js'
import { forgetCompanyKeys } from '../../core/key-cache.js'

interface KeyRow {
  id: string
  name: string
  prefix: string
  scopes: Scope[]
  permission: Permission
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
}

const present = (k: KeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  permission: k.permission,
  created_at: k.created_at.toISOString(),
  last_used_at: k.last_used_at?.toISOString() ?? null,
  revoked_at: k.revoked_at?.toISOString() ?? null,
})

const columns = (tx: postgres.TransactionSql) => tx`id, name, prefix, scopes, permission, created_at, last_used_at, revoked_at`

export async function listKeys(deps: Deps, principal: Principal) {
  const rows = await withTenant(deps.db, principal.companyId, (tx) =>
    tx<KeyRow[]>`select ${columns(tx)} from api_keys order by created_at, id`)
  return { keys: rows.map(present) }
}

export async function createKey(deps: Deps, principal: Principal, input: { name: string; scopes: Scope[]; permission: Permission }) {
  const key = generateApiKey()
  const row = await withTenant(deps.db, principal.companyId, async (tx) => {
    const [created] = await tx<KeyRow[]>`
      insert into api_keys (company_id, name, key_hash, prefix, scopes, permission, created_at)
      values (${principal.companyId}, ${input.name}, ${key.hash}, ${key.prefix}, ${input.scopes}, ${input.permission}, ${deps.clock.now()})
      returning ${columns(tx)}`
    return created!
  })
  return { key: present(row), api_key: key.key }
}

export async function revokeKey(deps: Deps, principal: Principal, id: string) {
  if (id === principal.keyId) throw new AppError('conflict', 'A key cannot revoke itself; use another admin key.')
  const row = await withTenant(deps.db, principal.companyId, async (tx) => {
    const [revoked] = await tx<KeyRow[]>`
      update api_keys set revoked_at = coalesce(revoked_at, ${deps.clock.now()}) where id = ${id}
      returning ${columns(tx)}`
    return revoked
  })
  if (!row) throw notFound('API key')
  // This instance refuses the key from the next call; other instances within a second (key-cache.ts).
  forgetCompanyKeys(deps, principal.companyId)
  return { key: present(row) }
}
