// API keys beyond the onboarding one: an owner gives each agent only the scopes and permission it
// needs. (The spec leaves key assignment open; see docs/decisions.md.)
import type { Deps } from '../../core/deps.js'
import type { Permission, Principal, Scope } from '../../core/access.js'
import { AppError, notFound } from '../../core/errors.js'
import { generateApiKey } from '../../core/credentials.js'
import { withTenant } from '../../db/sql.js'
import { forgetCompanyKeys } from '../../core/key-cache.js'
import { insertKey, listKeyRows, revokeKeyRow, type KeyRow } from './queries.js'

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

export async function listKeys(deps: Deps, principal: Principal) {
  const rows = await withTenant(deps.db, principal.companyId, listKeyRows)
  return { keys: rows.map(present) }
}

export async function createKey(deps: Deps, principal: Principal, input: { name: string; scopes: Scope[]; permission: Permission }) {
  const key = generateApiKey()
  const row = await withTenant(deps.db, principal.companyId, (tx) => insertKey(tx, principal.companyId, {
    name: input.name, key_hash: key.hash, prefix: key.prefix, scopes: input.scopes, permission: input.permission,
  }, deps.clock.now()))
  return { key: present(row), api_key: key.key }
}

export async function revokeKey(deps: Deps, principal: Principal, id: string) {
  if (id === principal.keyId) throw new AppError('conflict', 'A key cannot revoke itself; use another admin key.')
  const row = await withTenant(deps.db, principal.companyId, (tx) => revokeKeyRow(tx, id, deps.clock.now()))
  if (!row) throw notFound('API key')
  // This instance refuses the key from the next call; other instances within a second (key-cache.ts).
  forgetCompanyKeys(deps, principal.companyId)
  return { key: present(row) }
}
