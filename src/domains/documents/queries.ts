// Document SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import type { DocumentType } from './classify.js'
import type { ExtractedFields } from './fields.js'
import type { MatchMethod } from './schema.js'
import type { MediaType } from './sniff.js'
import type { TextSource } from './text.js'

export interface DocumentRow {
  id: string
  company_id: string
  sha256: string
  media_type: MediaType
  size_bytes: number
  original_filename: string | null
  storage_backend: 'local' | 's3'
  storage_key: string
  document_type: DocumentType
  classification_reason: string
  text_source: TextSource
  extracted_text: string
  supplier: string | null
  document_date: string | null
  total_cents: number | null
  gst_cents: number | null
  abn: string | null
  abn_valid: boolean | null
  job_id: string | null
  lead_id: string | null
  match_method: MatchMethod
  match_reason: string
  link_secret: Buffer
  created_at: Date
}

const columns = (tx: postgres.TransactionSql) => tx`
  id, company_id, sha256, media_type, size_bytes, original_filename, storage_backend, storage_key, document_type,
  classification_reason, text_source, extracted_text, supplier, to_char(document_date, 'YYYY-MM-DD') as document_date,
  total_cents::float8 as total_cents, gst_cents::float8 as gst_cents, abn, abn_valid, job_id, lead_id, match_method,
  match_reason, link_secret, created_at`

export async function findDocumentBySha(tx: postgres.TransactionSql, sha256: string): Promise<DocumentRow | null> {
  const [row] = await tx<DocumentRow[]>`select ${columns(tx)} from documents where sha256 = ${sha256}`
  return row ?? null
}

export async function findDocument(tx: postgres.TransactionSql, id: string): Promise<DocumentRow | null> {
  const [row] = await tx<DocumentRow[]>`select ${columns(tx)} from documents where id = ${id}`
  return row ?? null
}

export interface NewDocument {
  id: string
  sha256: string
  media_type: MediaType
  size_bytes: number
  original_filename: string | null
  storage_backend: 'local' | 's3'
  storage_key: string
  document_type: DocumentType
  classification_reason: string
  text_source: TextSource
  extracted_text: string
  fields: ExtractedFields
  job_id: string | null
  lead_id: string | null
  match_method: MatchMethod
  match_reason: string
  link_secret: Buffer
  created_by_key: string
}

/** The inserted row, or null when the same bytes were filed meanwhile (the caller answers with that one). */
export async function insertDocument(tx: postgres.TransactionSql, companyId: string, d: NewDocument, at: Date): Promise<DocumentRow | null> {
  const f = d.fields
  const [row] = await tx<DocumentRow[]>`
    insert into documents (id, company_id, sha256, media_type, size_bytes, original_filename, storage_backend, storage_key, document_type,
      classification_reason, text_source, extracted_text, supplier, document_date, total_cents, gst_cents, abn, abn_valid, job_id, lead_id,
      match_method, match_reason, link_secret, created_by_key, created_at)
    values (${d.id}, ${companyId}, ${d.sha256}, ${d.media_type}, ${d.size_bytes}, ${d.original_filename}, ${d.storage_backend}, ${d.storage_key},
      ${d.document_type}, ${d.classification_reason}, ${d.text_source}, ${d.extracted_text}, ${f.supplier}, ${f.date}, ${f.total_cents},
      ${f.gst_cents}, ${f.abn}, ${f.abn_valid}, ${d.job_id}, ${d.lead_id}, ${d.match_method}, ${d.match_reason}, ${d.link_secret},
      ${d.created_by_key}, ${at})
    on conflict (company_id, sha256) do nothing
    returning ${columns(tx)}`
  return row ?? null
}

export interface JobCandidate {
  job_id: string
  lead_id: string
  client_name: string
  job_address: string | null
  lead_address: string | null
  references: string[]
  created_at: Date
}

/** The company's recent jobs with what a document may name them by: client, address, quote and invoice numbers. */
export function jobCandidates(tx: postgres.TransactionSql): Promise<JobCandidate[]> {
  return tx<JobCandidate[]>`
    select j.id as job_id, j.lead_id, l.name as client_name, j.address as job_address, l.address as lead_address, j.created_at,
      array_remove(array[q.quote_number] || coalesce((select array_agg(i.invoice_number) from invoices i where i.job_id = j.id), '{}'), null) as references
    from jobs j join leads l on l.id = j.lead_id left join quotes q on q.id = j.quote_id
    order by j.created_at desc limit 500`
}

export interface LeadCandidate { lead_id: string; client_name: string; lead_address: string | null; created_at: Date }

export function leadCandidates(tx: postgres.TransactionSql): Promise<LeadCandidate[]> {
  return tx<LeadCandidate[]>`select id as lead_id, name as client_name, address as lead_address, created_at from leads order by created_at desc limit 500`
}

export async function jobLead(tx: postgres.TransactionSql, jobId: string): Promise<string | null> {
  const [row] = await tx<{ lead_id: string }[]>`select lead_id from jobs where id = ${jobId}`
  return row?.lead_id ?? null
}

export async function leadExists(tx: postgres.TransactionSql, leadId: string): Promise<boolean> {
  const [row] = await tx`select 1 from leads where id = ${leadId}`
  return Boolean(row)
}

/** Attaches a document that matched nothing to the job or lead its caller named later. */
export async function attachDocument(tx: postgres.TransactionSql, id: string, jobId: string | null, leadId: string | null, reason: string): Promise<DocumentRow | null> {
  const [row] = await tx<DocumentRow[]>`
    update documents set job_id = ${jobId}, lead_id = ${leadId}, match_method = 'given', match_reason = ${reason}
    where id = ${id} and job_id is null and lead_id is null
    returning ${columns(tx)}`
  return row ?? null
}
