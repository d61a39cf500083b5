import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, WRITE } from '../../core/planned.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { closed, Id } from '../shared-schema.js'

export const documentsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'documents.auto_file',
    title: 'Auto-file a document',
    description:
      'File a document (receipt, supplier invoice, certificate, SWMS, photo, contract) automatically: classifies it, extracts key details such as supplier, date and amount, and attaches it to the matching job or lead. Give url or content_base64; job_id or lead_id skip the matching.',
    input: Type.Object(
      {
        url: Type.Optional(Type.String({ format: 'uri', description: 'Where the document can be downloaded (give this or content_base64)' })),
        content_base64: Type.Optional(Type.String({ minLength: 1, maxLength: 14000000, description: 'The document itself, base64-encoded, up to about 10 MB (give this or url)' })),
        filename: Type.Optional(Type.String({ maxLength: 255, description: 'Original file name, e.g. receipt-0423.pdf' })),
        document_type: Type.Optional(
          StringEnum(['receipt', 'supplier_invoice', 'compliance_certificate', 'swms', 'photo', 'contract', 'other'] as const, { description: 'Type of document, if known; detected otherwise' }),
        ),
        job_id: Type.Optional(Id('Job to attach it to')),
        lead_id: Type.Optional(Id('Lead to attach it to')),
      },
      closed,
    ),
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability: 'Subcontractors and compliance',
  }),
]
