// Contact sync SQL: the lead to push, and whether it is a client yet (it has a job).
import type postgres from 'postgres'

export async function findContact(tx: postgres.TransactionSql, leadId: string): Promise<{ name: string; jobs: number } | undefined> {
  const [lead] = await tx<{ name: string; jobs: number }[]>`
      select l.name, (select count(*)::int from jobs j where j.lead_id = l.id) as jobs from leads l where l.id = ${leadId}`
  return lead
}
