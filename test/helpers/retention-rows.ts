// Old rows for the retention run to find, written as the owner with past timestamps (the retention
// workflow's recorder uses these; SQL stays out of src/domains/ outside queries files).
import type { Sql } from '../../src/db/sql.js'

export async function insertIdempotencyKey(sql: Sql, companyId: string, key: string, createdAt: Date, expiresAt: Date): Promise<void> {
  await sql`insert into idempotency_keys (company_id, key, operation, request_hash, state, created_at, expires_at)
            values (${companyId}, ${key}, 'leads.create', 'h', 'done', ${createdAt}, ${expiresAt})`
}

export async function insertWorkflowOutboxRow(sql: Sql, companyId: string, createdAt: Date, startedAt: Date | null): Promise<void> {
  await sql`insert into workflow_outbox (company_id, workflow_type, workflow_id, input, created_at, started_at)
            values (${companyId}, 'retentionProbe', ${`probe-${Math.random()}`}, '{}'::jsonb, ${createdAt}, ${startedAt})`
}
