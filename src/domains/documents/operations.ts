import { defineOperation } from '../../core/operation.js'
import { WRITE } from '../../core/annotations.js'
import { afterFiling } from './next-steps.js'
import { AutoFileInput, AutoFileResponse } from './schema.js'
import { autoFile } from './service.js'

export const documentOperations = [
  defineOperation({
    name: 'documents.auto_file',
    domain: 'documents',
    title: 'Auto-file a document',
    description:
      'File a document (receipt, supplier invoice, compliance certificate, SWMS, photo, plan, contract): checks its real type (PDF, JPEG, PNG, HEIC, WebP; 10 MB at most), reads its text (PDF text or OCR), classifies it with the reason, extracts supplier, date, total and GST in cents and ABN (checksum validated), and attaches it to the job or lead it names (job_id or lead_id skip the matching). The same file twice answers with the first document. Over REST the same route also takes a multipart/form-data upload (field file).',
    input: AutoFileInput,
    output: AutoFileResponse,
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'POST', path: '/documents', status: 201, feature: 'restWrite' },
    run: (ctx, input) => autoFile(ctx.deps, ctx.principal!, input),
    nextSteps: afterFiling,
  }),
]
