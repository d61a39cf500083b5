// API key SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import type { Permission, Scope } from '../../core/access.js'

export interface KeyRow {
  id: string
  name: string
  prefix: string
  scopes: Scope[]
  permission: Permission
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
}

const columns = (tx: postgres.TransactionSql) => tx`id, name, prefix, scopes, permission, created_at, last_used_at, revoked_at`

export async function listKeyRows(tx: postgres.TransactionSql): Promise<KeyRow[]> {
  return tx<KeyRow[]>`select ${columns(tx)} from api_keys order by created_at, id`
}

export interface NewKey {
  name: string
  key_hash: string
  prefix: string
  scopes: Scope[]
  permission: Permission
}

export async function insertKey(tx: postgres.TransactionSql, companyId: string, key: NewKey, now: Date): Promise<KeyRow> {
  const [created] = await tx<KeyRow[]>`
      insert into api_keys (company_id, name, key_hash, prefix, scopes, permission, created_at)
      values (${companyId}, ${key.name}, ${key.key_hash}, ${key.prefix}, ${key.scopes}, ${key.permission}, ${now})
      returning ${columns(tx)}`
  return created!
}

/** Sets revoked_at once (a second revoke keeps the first time); undefined when no key has that id. */
export async function revokeKeyRow(tx: postgres.TransactionSql, id: string, now: Date): Promise<KeyRow | undefined> {
  const [revoked] = await tx<KeyRow[]>`
      update api_keys set revoked_at = coalesce(revoked_at, ${now}) where id = ${id}
      returning ${columns(tx)}`
  return revoked
}
