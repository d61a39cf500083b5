// The documents' HTTP edges that JSON cannot carry: the multipart upload (POST /api/v1/documents as
// multipart/form-data, files up to DOCUMENTS_MAX_BYTES) and the download of a filed document's bytes.
// The upload only turns the form into the operation's input (the file as content_base64) and lets
// the generated REST route run documents.auto_file through the one pipeline; the download needs the
// company's key (scope jobs, read) or a signed link, and is served as an attachment, never inline.
import Router from '@koa/router'
import busboy from 'busboy'
import type { Context, Middleware, Next } from 'koa'
import { authenticateHttp, authorize, type KeyRateLimiter } from '../core/auth.js'
import type { Deps } from '../core/deps.js'
import { validationError } from '../core/errors.js'
import { documentFile, signedDocumentFile, tooLarge, type FileAnswer } from '../domains/documents/service.js'
import { API_PREFIX } from './rest.js'

const FORM_FIELDS = new Set(['document_type', 'job_id', 'lead_id', 'filename'])

function readForm(ctx: Context, maxBytes: number, deps: Deps): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: maxBytes, fields: 10, fieldSize: 1000, parts: 12 } })
    } catch (error) {
      reject(validationError([`body: ${(error as Error).message}`], 'The multipart body could not be read. Send multipart/form-data with a file field.'))
      return
    }
    const fields: Record<string, string> = {}
    const problems: string[] = []
    let file: Buffer | null = null
    let truncated = false
    parser.on('field', (name, value) => {
      if (FORM_FIELDS.has(name)) fields[name] = value
      else problems.push(`${name}: is not a field of this upload (file, ${[...FORM_FIELDS].join(', ')})`)
    })
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        problems.push(`${name}: the file goes in the field named file`)
        stream.resume()
        return
      }
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('limit', () => (truncated = true))
      stream.on('end', () => {
        file = Buffer.concat(chunks)
        if (info.filename && fields.filename === undefined) fields.filename = info.filename.slice(0, 255)
      })
    })
    parser.on('error', (error: Error) => reject(validationError([`body: ${error.message}`], 'The multipart body could not be read. Nothing was stored.')))
    parser.on('close', () => {
      if (truncated) return reject(tooLarge(deps, null))
      if (problems.length) return reject(validationError(problems))
      if (!file || file.length === 0) return reject(validationError(['file: a multipart upload needs a non-empty field named file'], 'No file was sent. Nothing was stored.'))
      resolve({ ...fields, content_base64: (file as Buffer).toString('base64') })
    })
    ctx.req.pipe(parser)
  })
}

/** Mounted before the JSON body parser: a multipart POST /documents becomes auto_file's JSON input. */
export function documentUploads(deps: Deps): Middleware {
  return async (ctx: Context, next: Next) => {
    if (ctx.method === 'POST' && ctx.path === `${API_PREFIX}/documents` && ctx.is('multipart/form-data')) {
      // The form around the file adds a few KB; anything declared well past the limit is refused unread.
      if (Number(ctx.get('content-length') || 0) > deps.config.DOCUMENTS_MAX_BYTES + 64 * 1024) throw tooLarge(deps, null)
      ;(ctx.request as { body?: unknown }).body = await readForm(ctx, deps.config.DOCUMENTS_MAX_BYTES, deps)
    }
    await next()
  }
}

function send(ctx: Context, file: FileAnswer) {
  const name = (file.filename ?? 'document').replace(/[^\w.-]+/g, '_').slice(0, 100)
  ctx.set({
    'Content-Type': file.mediaType,
    'Content-Disposition': `attachment; filename="${name}"`,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  })
  ctx.body = file.bytes
}

/** GET /api/v1/documents/:document_id/file: with a signed link's query, or with a key holding jobs read. */
export function documentFileRoutes(deps: Deps, limiter: KeyRateLimiter): Router {
  const router = new Router({ prefix: API_PREFIX })
  router.get('/documents/:document_id/file', async (ctx) => {
    const documentId = ctx.params.document_id!
    const q = (k: string) => (typeof ctx.query[k] === 'string' ? (ctx.query[k] as string) : '')
    if (q('signature')) {
      send(ctx, await signedDocumentFile(deps, { companyId: q('company'), documentId, expires: q('expires'), signature: q('signature') }))
      return
    }
    const principal = await authenticateHttp(ctx, deps, limiter, { count: true })
    authorize({ scope: 'jobs', permission: 'read' }, principal)
    send(ctx, await documentFile(deps, principal.companyId, documentId))
  })
  return router
}
