import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { closed, Id } from '../shared-schema.js'
import { DOCUMENT_TYPES } from './classify.js'
import { ACCEPTED_TYPES } from './sniff.js'

export const MATCH_METHODS = ['given', 'job_reference', 'client_name', 'address', 'none'] as const
export type MatchMethod = (typeof MATCH_METHODS)[number]

/**
 * base64 of a file within the 1 MB JSON/MCP request body (about 750 KB of file); the REST multipart
 * upload (POST /documents, multipart/form-data) carries files up to DOCUMENTS_MAX_BYTES (10 MB) and
 * reaches the same operation with this field filled in, hence the larger bound here.
 */
export const MAX_BASE64_CHARS = 14_000_000

export const AutoFileInput = Type.Object(
  {
    content_base64: Type.String({
      minLength: 1, maxLength: MAX_BASE64_CHARS,
      description: 'The file, base64-encoded: PDF, JPEG, PNG, HEIC or WebP. In a tool call the whole request is at most 1 MB (a file of about 750 KB); larger files up to 10 MB go over REST as a multipart/form-data upload (field file) to the same route',
    }),
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Original file name, e.g. receipt-0423.pdf (kept for display; never used to store the file)' })),
    document_type: Type.Optional(StringEnum(DOCUMENT_TYPES, { description: 'Type of document, if known; detected from its text otherwise' })),
    job_id: Type.Optional(Id('Job to attach it to (skips matching)')),
    lead_id: Type.Optional(Id('Lead to attach it to (skips matching)')),
  },
  closed,
)

export const DocumentSchema = Type.Object({
  id: Type.String(),
  document_type: StringEnum(DOCUMENT_TYPES),
  classification_reason: Type.String({ description: 'The words or facts that decided document_type' }),
  media_type: StringEnum(Object.keys(ACCEPTED_TYPES) as (keyof typeof ACCEPTED_TYPES)[], { description: 'Read from the bytes, not the name' }),
  size_bytes: Type.Integer(),
  sha256: Type.String(),
  filename: Nullable(Type.String()),
  text_source: StringEnum(['pdf_text', 'ocr', 'none'] as const, { description: "pdf_text: the PDF's own text; ocr: read from the image; none: no text read" }),
  text_excerpt: Type.String({ description: 'The first 500 characters of the text read' }),
  supplier: Nullable(Type.String()),
  date: Nullable(Type.String({ format: 'date' })),
  total_cents: Nullable(Type.Integer({ description: 'Total as printed, cents, incl. GST' })),
  gst_cents: Nullable(Type.Integer({ description: 'GST as printed, cents: the GST itself' })),
  abn: Nullable(Type.String({ description: '11 digits as printed' })),
  abn_valid: Nullable(Type.Boolean({ description: 'The ABN passes the ABR checksum' })),
  job_id: Nullable(Type.String()),
  lead_id: Nullable(Type.String()),
  match: Type.Object({ method: StringEnum(MATCH_METHODS), reason: Type.String() }, { description: 'How the job or lead was found, or why none was' }),
  storage_backend: StringEnum(['local', 's3'] as const),
  file_url: Type.String({ description: 'Signed download link, valid until file_url_expires_at; GET /api/v1/documents/{id}/file with a key (jobs read) also works' }),
  file_url_expires_at: DateTime(),
  created_at: DateTime(),
})

export const AutoFileResponse = Type.Object({
  document: DocumentSchema,
  duplicate: Type.Boolean({ description: 'true: this company had already filed the same bytes; the existing document is returned and nothing new was stored' }),
})
