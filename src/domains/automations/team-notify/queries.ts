// Team notice SQL: the job a notice is about, the company (sender and owner), and its users. Every
// function takes the tenant transaction from withTenant().
import type postgres from 'postgres'

export interface NoticeJobRow {
  title: string
  address: string | null
  scheduled_date: Date | null
}

export async function findNoticeJob(tx: postgres.TransactionSql, jobId: string): Promise<NoticeJobRow | undefined> {
  const [job] = await tx<NoticeJobRow[]>`select title, address, scheduled_date from jobs where id = ${jobId}`
  return job
}

export async function findSenderAndZone(tx: postgres.TransactionSql): Promise<{ business_name: string; time_zone: string } | undefined> {
  const [company] = await tx<{ business_name: string; time_zone: string }[]>`select business_name, time_zone from companies`
  return company
}

/** The owner's contact details, kept on the company row (there is no staff table yet). */
export async function findOwnerContact(tx: postgres.TransactionSql): Promise<{ contact_name: string | null; phone: string | null; contact_email: string } | undefined> {
  const [company] = await tx<{ contact_name: string | null; phone: string | null; contact_email: string }[]>`select contact_name, phone, contact_email from companies`
  return company
}

export async function listUsers(tx: postgres.TransactionSql): Promise<{ id: string; name: string | null; email: string }[]> {
  return tx<{ id: string; name: string | null; email: string }[]>`select id::text, name, email from users order by created_at, id`
}
