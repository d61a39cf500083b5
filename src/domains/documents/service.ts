// documents.auto_file: check the bytes (size, real type), answer with the existing document when the
// company filed the same bytes before, read the text (PDF text or OCR), classify it, read its fields,
// find its job or lead, store the file under our own key, then record it. The slow parts (OCR, the
// store) run before the transaction, so no row lock waits on them; a file whose row is not written
// (an error, or the same bytes filed meanwhile) is removed from the store again.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import { onePerApp } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound, validationError } from '../../core/errors.js'
import { isUuid } from '../../core/uuid.js'
import { withTenant } from '../../db/sql.js'
import { createDocumentStorage } from '../../providers/storage/index.js'
import type { DocumentStorage } from '../../providers/storage/provider.js'
import { classify, type DocumentType } from './classify.js'
import { extractFields } from './fields.js'
import { signedFileUrl, signatureValid } from './links.js'
import { matchDocument, type Match } from './match.js'
import { attachDocument, findDocument, findDocumentBySha, insertDocument, jobCandidates, jobLead, leadCandidates, leadExists, type DocumentRow, type NewDocument } from './queries.js'
import type { AutoFileInput, AutoFileResponse } from './schema.js'
import { ACCEPTED_TYPES_TEXT, describeRefused, sniffMediaType } from './sniff.js'
import { readText } from './text.js'

export const documentStorage = onePerApp((deps: Deps): DocumentStorage => createDocumentStorage(deps.config))

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`

/** The limit as messages state it: "10 MB (10485760 bytes)". */
export const sizeLimitText = (deps: Deps) => `${megabytes(deps.config.DOCUMENTS_MAX_BYTES)} (${deps.config.DOCUMENTS_MAX_BYTES} bytes)`

export function tooLarge(deps: Deps, size: number | null): AppError {
  return validationError(
    [`content_base64: the file is ${size === null ? 'larger than the limit' : `${size} bytes`}; files are at most ${sizeLimitText(deps)}`],
    `The file is over the ${sizeLimitText(deps)} limit. Nothing was stored. Send a smaller file (a PDF or a photo of ${megabytes(deps.config.DOCUMENTS_MAX_BYTES)} or less).`,
  )
}

function decode(deps: Deps, base64: string): Buffer {
  const compact = base64.replace(/\s+/g, '')
  const body = compact.replace(/^data:[^,]*;base64,/, '')
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(body) || body.length % 4 === 1) {
    throw validationError(['content_base64: is not valid base64'], 'content_base64 could not be decoded. Nothing was stored. Send the file base64-encoded.')
  }
  const bytes = Buffer.from(body, 'base64')
  if (bytes.length === 0) throw validationError(['content_base64: the file is empty'], 'The file is empty. Nothing was stored.')
  if (bytes.length > deps.config.DOCUMENTS_MAX_BYTES) throw tooLarge(deps, bytes.length)
  return bytes
}

type DocumentView = Static<typeof AutoFileResponse>['document']

export function presentDocument(deps: Deps, row: DocumentRow): DocumentView {
  const expires = Math.floor(deps.clock.now().getTime() / 1000) + deps.config.DOCUMENTS_LINK_TTL_SECONDS
  return {
    id: row.id,
    document_type: row.document_type,
    classification_reason: row.classification_reason,
    media_type: row.media_type,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    filename: row.original_filename,
    text_source: row.text_source,
    text_excerpt: row.extracted_text.slice(0, 500),
    supplier: row.supplier,
    date: row.document_date,
    total_cents: row.total_cents,
    gst_cents: row.gst_cents,
    abn: row.abn,
    abn_valid: row.abn_valid,
    job_id: row.job_id,
    lead_id: row.lead_id,
    match: { method: row.match_method, reason: row.match_reason },
    storage_backend: row.storage_backend,
    file_url: signedFileUrl(deps.urls.apiBase, row.link_secret, row.company_id, row.id, expires),
    file_url_expires_at: new Date(expires * 1000).toISOString(),
    created_at: row.created_at.toISOString(),
  }
}

/** job_id / lead_id as given: they must exist for this company, and agree when both are given. */
async function givenMatch(deps: Deps, companyId: string, input: Static<typeof AutoFileInput>): Promise<Match | null> {
  const { job_id: jobId, lead_id: leadId } = input
  if (jobId === undefined && leadId === undefined) return null
  for (const [field, id] of [['job_id', jobId], ['lead_id', leadId]] as const) {
    if (id !== undefined && !isUuid(id)) throw validationError([`${field}: must be a UUID`])
  }
  return withTenant(deps.db, companyId, async (tx) => {
    if (jobId !== undefined) {
      const jobsLead = await jobLead(tx, jobId)
      if (!jobsLead) throw notFound(`Job ${jobId}`)
      if (leadId !== undefined && leadId !== jobsLead) throw validationError([`lead_id: job ${jobId} belongs to lead ${jobsLead}, not ${leadId}`], 'job_id and lead_id disagree. Give one of them.')
      return { job_id: jobId, lead_id: jobsLead, method: 'given', reason: 'job_id given by the caller' }
    }
    if (!(await leadExists(tx, leadId!))) throw notFound(`Lead ${leadId}`)
    return { job_id: null, lead_id: leadId!, method: 'given', reason: 'lead_id given by the caller' }
  })
}

export async function autoFile(deps: Deps, principal: Principal, input: Static<typeof AutoFileInput>): Promise<Static<typeof AutoFileResponse>> {
  const companyId = principal.companyId
  const bytes = decode(deps, input.content_base64)
  const mediaType = sniffMediaType(bytes)
  if (!mediaType) {
    throw validationError(
      [`content_base64: the file is ${describeRefused(bytes)}; accepted types are ${ACCEPTED_TYPES_TEXT}`],
      `This type of file is not filed. Nothing was stored. Send a ${ACCEPTED_TYPES_TEXT} file of at most ${sizeLimitText(deps)}.`,
    )
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const given = await givenMatch(deps, companyId, input)
  const existing = await withTenant(deps.db, companyId, async (tx) => {
    const found = await findDocumentBySha(tx, sha256)
    // The same file again with the job it belongs to attaches a document that matched nothing.
    if (found && given) return (await attachDocument(tx, found.id, given.job_id, given.lead_id, given.reason)) ?? found
    return found
  })
  if (existing) return { document: presentDocument(deps, existing), duplicate: true }

  const text = await readText(bytes, mediaType)
  const classification = classify(text.text, mediaType, input.document_type)
  const fields = extractFields(text.text)
  const match = given ?? matchDocument(text.text, ...(await withTenant(deps.db, companyId, async (tx) => [await jobCandidates(tx), await leadCandidates(tx)] as const)))

  return storeAndRecord(deps, companyId, bytes, {
    sha256, media_type: mediaType, original_filename: input.filename ?? null,
    document_type: classification.type,
    classification_reason: text.note ? `${classification.reason}; ${text.note}` : classification.reason,
    text_source: text.source, extracted_text: text.text, fields,
    job_id: match.job_id, lead_id: match.lead_id, match_method: match.method, match_reason: match.reason,
    created_by_key: principal.keyId,
  })
}

type Recorded = { document: DocumentView; duplicate: boolean }
type ToRecord = Omit<NewDocument, 'id' | 'size_bytes' | 'storage_backend' | 'storage_key' | 'link_secret'>

/**
 * Stores the bytes under our own key, then records the row; when the same bytes were filed meanwhile
 * the stored copy is removed and the existing document answers. A row not written removes the file.
 */
async function storeAndRecord(deps: Deps, companyId: string, bytes: Buffer, d: ToRecord): Promise<Recorded> {
  const storage = documentStorage(deps)
  const id = randomUUID()
  const storageKey = `${companyId}/${id}`
  await storage.put(storageKey, bytes, d.media_type)
  let row: DocumentRow | null
  try {
    row = await withTenant(deps.db, companyId, async (tx) => {
      const inserted = await insertDocument(tx, companyId, {
        ...d, id, size_bytes: bytes.length, storage_backend: storage.backend, storage_key: storageKey, link_secret: randomBytes(32),
      }, deps.clock.now())
      return inserted ?? findDocumentBySha(tx, d.sha256)
    })
  } catch (error) {
    await storage.delete(storageKey).catch(() => undefined)
    throw error
  }
  if (!row) throw new AppError('internal_error', 'The document could not be recorded. Retry.')
  const duplicate = row.id !== id
  if (duplicate) await storage.delete(storageKey).catch(() => undefined)
  return { document: presentDocument(deps, row), duplicate }
}

export interface GeneratedPdf {
  bytes: Buffer
  filename: string
  documentType: DocumentType
  /** The document's text as the service wrote it (searchable like a filed PDF's text). */
  text: string
  jobId: string | null
  leadId: string | null
  /** Why it is this type, e.g. "written by compliance.generate_swms". */
  reason: string
}

/**
 * Files a PDF the service produced (a SWMS draft) as the company's document, with a signed link. The
 * same bytes again answer with the first document, so a retried call stores nothing twice.
 */
export function fileGeneratedPdf(deps: Deps, principal: Principal, pdf: GeneratedPdf): Promise<Recorded> {
  return storeAndRecord(deps, principal.companyId, pdf.bytes, {
    sha256: createHash('sha256').update(pdf.bytes).digest('hex'), media_type: 'application/pdf', original_filename: pdf.filename,
    document_type: pdf.documentType, classification_reason: pdf.reason, text_source: 'pdf_text', extracted_text: pdf.text,
    fields: { supplier: null, date: null, total_cents: null, gst_cents: null, abn: null, abn_valid: null },
    job_id: pdf.jobId, lead_id: pdf.leadId, match_method: pdf.jobId || pdf.leadId ? 'given' : 'none',
    match_reason: pdf.jobId ? `job_id given to ${pdf.reason}` : 'no job given',
    created_by_key: principal.keyId,
  })
}

export interface FileAnswer { bytes: Buffer; mediaType: string; filename: string | null }

async function fileOf(deps: Deps, row: DocumentRow | null, documentId: string): Promise<FileAnswer> {
  if (!row) throw notFound(`Document ${documentId}`)
  const bytes = await documentStorage(deps).get(row.storage_key)
  if (!bytes) throw new AppError('not_found', `Document ${documentId}'s file is missing from storage. File it again with documents.auto_file.`)
  return { bytes, mediaType: row.media_type, filename: row.original_filename }
}

/** The file for a key holder of its company (the route has checked the key's scope). */
export async function documentFile(deps: Deps, companyId: string, documentId: string): Promise<FileAnswer> {
  if (!isUuid(documentId)) throw notFound(`Document ${documentId}`)
  return fileOf(deps, await withTenant(deps.db, companyId, (tx) => findDocument(tx, documentId)), documentId)
}

/** The file for a signed link; every failure reads the same, so a link reveals nothing about other documents. */
export async function signedDocumentFile(deps: Deps, link: { companyId: string; documentId: string; expires: string; signature: string }): Promise<FileAnswer> {
  const refused = new AppError('forbidden', 'This download link is invalid or has expired. Ask for a new one: documents.auto_file with the same file answers with a fresh link.')
  const expires = Number(link.expires)
  if (!isUuid(link.companyId) || !isUuid(link.documentId) || !Number.isInteger(expires)) throw refused
  if (expires * 1000 < deps.clock.now().getTime()) throw refused
  const row = await withTenant(deps.db, link.companyId, (tx) => findDocument(tx, link.documentId))
  if (!row || !signatureValid(row.link_secret, link.companyId, link.documentId, expires, link.signature)) throw refused
  return fileOf(deps, row, link.documentId)
}
