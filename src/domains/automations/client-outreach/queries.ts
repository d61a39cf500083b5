// Client outreach SQL (review booster, referral program, upsell suggestions): review requests and
// replies, referral codes and the leads they brought, the service catalogue against what a client
// already had, and the runs the tools start. Every function takes the tenant transaction.
import type postgres from 'postgres'
import { workflowIdSql } from '../../../temporal/contract.js'
import { reviewBoosterWorkflowId } from './workflows/review-booster.js'

export async function findBusinessName(tx: postgres.TransactionSql): Promise<string> {
  const [company] = await tx<{ business_name: string }[]>`select business_name from companies`
  return company!.business_name
}

/** Removes the run record of a failed run, so it can be started again. */
export async function deleteFailedRun(tx: postgres.TransactionSql, workflowId: string): Promise<void> {
  await tx`delete from automation_runs where workflow_id = ${workflowId} and status = 'failed'`
}

// Review booster

/** Inbound messages from the client since `since`. */
export async function countRepliesSince(tx: postgres.TransactionSql, leadId: string, since: Date): Promise<number> {
  const [reply] = await tx<{ n: number }[]>`
    select count(*)::int as n from communications where lead_id = ${leadId} and direction = 'inbound' and created_at > ${since}`
  return reply!.n
}

/** The job's review requests, first first. */
export async function listReviewRequests(tx: postgres.TransactionSql, jobId: string): Promise<{ request_number: number; created_at: Date }[]> {
  return tx<{ request_number: number; created_at: Date }[]>`select request_number, created_at from review_requests where job_id = ${jobId} order by request_number`
}

/** The job's first review request numbered `from` or later. */
export async function findReviewRequestFrom(tx: postgres.TransactionSql, jobId: string, from: number): Promise<{ request_number: number; channels: string[] } | undefined> {
  const [existing] = await tx<{ request_number: number; channels: string[] }[]>`
      select request_number, channels from review_requests where job_id = ${jobId} and request_number >= ${from} order by request_number limit 1`
  return existing
}

export interface UnaskedJobRow { id: string; title: string; lead_name: string; lead_phone: string | null; lead_email: string | null; run_status: string | null }

/** Jobs completed since `since` whose client was never asked for a review, with their booster run's status, at most 500. */
export async function listUnaskedJobs(tx: postgres.TransactionSql, companyId: string, since: Date): Promise<UnaskedJobRow[]> {
  return tx<UnaskedJobRow[]>`
      select j.id, j.title, l.name as lead_name, l.phone as lead_phone, l.email as lead_email,
             (select r.status from automation_runs r where r.workflow_id = ${workflowIdSql(tx, reviewBoosterWorkflowId, { companyId, jobId: tx`j.id` })}) as run_status
      from jobs j join leads l on l.id = j.lead_id
      where j.status = 'Completed' and j.completed_at >= ${since}
        and not exists (select 1 from review_requests rr where rr.job_id = j.id)
      order by j.completed_at, j.id limit 500`
}

// Referral program

export type RewardType = 'discount' | 'credit' | 'gift_card'

export interface CodeRow { id: string; code: string; reward_type: RewardType; reward_cents: string; lead_id: string; created_at: Date }

export async function findReferralCode(tx: postgres.TransactionSql, leadId: string): Promise<CodeRow | undefined> {
  return (await tx<CodeRow[]>`select id, code, reward_type, reward_cents, lead_id, created_at from referral_codes where lead_id = ${leadId}`)[0]
}

export interface NewReferralCode {
  companyId: string
  leadId: string
  code: string
  reward: { type: RewardType; cents: number }
  sourceJobId: string | null
  now: Date
}

/** The new code's row, or none when the client has a code already or the code is taken. */
export async function insertReferralCode(tx: postgres.TransactionSql, c: NewReferralCode): Promise<CodeRow | undefined> {
  const [row] = await tx<CodeRow[]>`
      insert into referral_codes (company_id, lead_id, code, reward_type, reward_cents, source_job_id, created_at)
      values (${c.companyId}, ${c.leadId}, ${c.code}, ${c.reward.type}, ${c.reward.cents}, ${c.sourceJobId}, ${c.now})
      on conflict do nothing
      returning id, code, reward_type, reward_cents, lead_id, created_at`
  return row
}

/** Links the lead to the code it came with (not the code's own client; once). */
export async function insertReferralLead(tx: postgres.TransactionSql, companyId: string, code: string, leadId: string, now: Date): Promise<void> {
  await tx`
    insert into referral_leads (company_id, referral_code_id, lead_id, created_at)
    select ${companyId}, id, ${leadId}, ${now} from referral_codes where code = ${code} and lead_id <> ${leadId}
    on conflict do nothing`
}

/** Clients with a job completed since `since`, by their first such job, at most `limit`. */
export async function listRecentClients(tx: postgres.TransactionSql, since: Date, limit: number): Promise<{ lead_id: string; name: string }[]> {
  return tx<{ lead_id: string; name: string }[]>`
      select l.id as lead_id, l.name from leads l
      join lateral (select min(j.completed_at) as first from jobs j where j.lead_id = l.id and j.status = 'Completed' and j.completed_at >= ${since}) c on c.first is not null
      order by c.first, l.id limit ${limit}`
}

export async function countReferredLeads(tx: postgres.TransactionSql, codeId: string): Promise<number> {
  const [n] = await tx<{ n: number }[]>`select count(*)::int as n from referral_leads where referral_code_id = ${codeId}`
  return n!.n
}

// Upsell suggestions

export interface ServiceRow { id: string; name: string; category: string | null; unit: string; unit_price_cents: string; quoted: number }

export async function findJobLead(tx: postgres.TransactionSql, jobId: string): Promise<{ lead_id: string } | undefined> {
  const [job] = await tx<{ lead_id: string }[]>`select lead_id from jobs where id = ${jobId}`
  return job
}

export async function findLeadName(tx: postgres.TransactionSql, leadId: string): Promise<{ id: string; name: string } | undefined> {
  const [lead] = await tx<{ id: string; name: string }[]>`select id, name from leads where id = ${leadId}`
  return lead
}

/** The client's jobs that are not Cancelled, oldest first. */
export async function listClientJobs(tx: postgres.TransactionSql, leadId: string): Promise<{ id: string; title: string }[]> {
  return tx<{ id: string; title: string }[]>`select id, title from jobs where lead_id = ${leadId} and status <> 'Cancelled' order by created_at, id`
}

/** Active services, with how often each was quoted to anyone. */
export async function listActiveServices(tx: postgres.TransactionSql): Promise<ServiceRow[]> {
  return tx<ServiceRow[]>`
    select s.id, s.name, s.category, s.unit, s.unit_price_cents,
           (select count(*)::int from quote_line_items li where li.service_id = s.id) as quoted
    from services s where s.active order by s.name, s.id`
}

/** Services on the client's quotes that were accepted or became a job that is not Cancelled. */
export async function listServicesQuotedToClient(tx: postgres.TransactionSql, leadId: string): Promise<{ service_id: string }[]> {
  return tx<{ service_id: string }[]>`
    select distinct li.service_id from quote_line_items li join quotes q on q.id = li.quote_id
    where li.service_id is not null and q.lead_id = ${leadId}
      and (q.status = 'Accepted' or exists (select 1 from jobs j where j.quote_id = q.id and j.status <> 'Cancelled'))`
}

/** Every service, active or not (quoted left 0). */
export async function listAllServices(tx: postgres.TransactionSql): Promise<ServiceRow[]> {
  return tx<ServiceRow[]>`select id, name, category, unit, unit_price_cents, 0 as quoted from services order by name, id`
}
