// Compliance SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'

export interface SwmsCompany { business_name: string; abn: string | null; state: string | null }

export async function findSwmsCompany(tx: postgres.TransactionSql): Promise<SwmsCompany> {
  const [row] = await tx<SwmsCompany[]>`select business_name, abn, state from companies`
  return row!
}

export interface SwmsJob { id: string; lead_id: string; title: string; notes: string | null; address: string | null; service_type: string | null; message: string | null; lead_address: string | null }

export async function findSwmsJob(tx: postgres.TransactionSql, jobId: string): Promise<SwmsJob | null> {
  const [row] = await tx<SwmsJob[]>`
    select j.id, j.lead_id, j.title, j.notes, j.address, l.service_type, l.message, l.address as lead_address
    from jobs j join leads l on l.id = j.lead_id where j.id = ${jobId}`
  return row ?? null
}
