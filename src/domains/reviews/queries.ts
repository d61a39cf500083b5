// Review SQL: review links and review requests. Every function takes the tenant transaction from
// withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import type { ReviewPlatform } from './schema.js'

export interface LinkRow { platform: ReviewPlatform; url: string; is_default: boolean }

export async function listReviewLinkRows(tx: postgres.TransactionSql): Promise<LinkRow[]> {
  return tx<LinkRow[]>`select platform, url, is_default from review_links`
}

export async function deleteReviewLink(tx: postgres.TransactionSql, platform: ReviewPlatform): Promise<void> {
  await tx`delete from review_links where platform = ${platform}`
}

export async function upsertReviewLink(tx: postgres.TransactionSql, companyId: string, platform: ReviewPlatform, url: string, now: Date): Promise<void> {
  await tx`
          insert into review_links (company_id, platform, url, updated_at) values (${companyId}, ${platform}, ${url}, ${now})
          on conflict (company_id, platform) do update set url = excluded.url, updated_at = excluded.updated_at`
}

export async function clearDefaultReviewLink(tx: postgres.TransactionSql): Promise<void> {
  await tx`update review_links set is_default = false where is_default`
}

/** Whether the platform had a link to make the default. */
export async function setDefaultReviewLink(tx: postgres.TransactionSql, platform: ReviewPlatform, now: Date): Promise<boolean> {
  const set = await tx`update review_links set is_default = true, updated_at = ${now} where platform = ${platform}`
  return set.count > 0
}

export interface RequestRow {
  id: string
  job_id: string
  request_number: number
  platform: ReviewPlatform
  url: string
  channels: ('sms' | 'email')[]
  skipped: string[]
  workflow_id: string
  created_at: Date
}

export async function findBusinessName(tx: postgres.TransactionSql): Promise<string> {
  const [company] = await tx<{ business_name: string }[]>`select business_name from companies`
  return company!.business_name
}

/** The job's highest request number so far, 0 before the first. */
export async function lastRequestNumber(tx: postgres.TransactionSql, jobId: string): Promise<number> {
  const [count] = await tx<{ n: number }[]>`select coalesce(max(request_number), 0)::int as n from review_requests where job_id = ${jobId}`
  return count!.n
}

export async function findLatestRequest(tx: postgres.TransactionSql, jobId: string): Promise<RequestRow | undefined> {
  const [earlier] = await tx<RequestRow[]>`
        select id, job_id, request_number, platform, url, channels, skipped, workflow_id, created_at
        from review_requests where job_id = ${jobId} order by request_number desc limit 1`
  return earlier
}

export interface NewRequest {
  job_id: string
  request_number: number
  platform: ReviewPlatform
  url: string
  channels: ('sms' | 'email')[]
  skipped: string[]
  workflow_id: string
}

export async function insertRequest(tx: postgres.TransactionSql, companyId: string, request: NewRequest, now: Date): Promise<RequestRow> {
  const [row] = await tx<RequestRow[]>`
    insert into review_requests (company_id, job_id, request_number, platform, url, channels, skipped, workflow_id, created_at)
    values (${companyId}, ${request.job_id}, ${request.request_number}, ${request.platform}, ${request.url}, ${request.channels}, ${request.skipped}, ${request.workflow_id}, ${now})
    returning id, job_id, request_number, platform, url, channels, skipped, workflow_id, created_at`
  return row!
}

export async function stampJobReviewRequested(tx: postgres.TransactionSql, jobId: string, now: Date): Promise<void> {
  await tx`update jobs set review_requested_at = ${now}, updated_at = ${now} where id = ${jobId}`
}
