// documents.auto_file end to end (issue 24, item 3): a receipt PDF, a photo of a printed receipt
// (OCR) and a compliance certificate, each filed to the job it names with the fields the test put in
// it; refused types and oversize files store nothing; the same file twice is one document; the file
// is served only to its company's key or through its signed link. Local disk storage; the S3 store
// is tested in test/document-storage-s3.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { pdfOf, receiptPhoto, validAbn } from './helpers/document-samples.js'
import { stopOcr } from '../src/domains/documents/text.js'

const MAX_BYTES = 300_000
let app: TestApp
let client: Client
let company: Awaited<ReturnType<typeof onboard>>
let dir: string
const jobs: Record<string, { id: string; lead_id: string }> = {}

async function jobFor(name: string, address: string) {
  const lead = (await tool(client, 'leads.create', { name, address })).lead
  return (await tool(client, 'jobs.create', { lead_id: lead.id, title: `Work for ${name}` })).job
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'documents-'))
  app = await startTestApp({ config: { DOCUMENTS_DIR: dir, DOCUMENTS_MAX_BYTES: MAX_BYTES } })
  company = await onboard(app)
  client = await connectHttp(app, company.api_key)
  jobs.harriet = await jobFor('Harriet Nguyen', '27 Banksia Street, Marrickville NSW 2204')
  jobs.oscar = await jobFor('Oscar Pemberton', '5 Wattle Road, Leichhardt NSW 2040')
  jobs.priya = await jobFor('Priya Raman', '88 Ocean Parade, Coogee NSW 2034')
})
afterAll(async () => {
  await stopOcr()
  await client?.close()
  await app?.stop()
})

const b64 = (bytes: Buffer) => bytes.toString('base64')
const rowCount = async () => Number((await app.owner`select count(*)::int as n from documents`)[0]!.n)
async function fileCount(): Promise<number> {
  const companies = await readdir(dir).catch(() => [] as string[])
  let n = 0
  for (const c of companies) n += (await readdir(join(dir, c))).length
  return n
}

describe('documents.auto_file files each document to the job it names', () => {
  it('a receipt PDF: classified as a receipt, supplier, date, total, GST and ABN read, filed to the job at its delivery address', async () => {
    const abn = validAbn('518247535')
    const pdf = await pdfOf(['Bunnings Warehouse', `ABN ${abn}`, 'TAX INVOICE / RECEIPT', 'Date: 14/03/2026', 'Deliver to: 27 Banksia St, Marrickville',
      '2 x Conduit 25mm    $41.20', 'Subtotal            $112.23', 'GST                 $11.22', 'TOTAL               $123.45', 'EFTPOS APPROVED  PAID'])
    const out = await tool(client, 'documents.auto_file', { content_base64: b64(pdf), filename: '../../etc/receipt.pdf' })
    const d = out.document
    expect(out.duplicate).toBe(false)
    expect(d).toMatchObject({
      document_type: 'receipt', media_type: 'application/pdf', text_source: 'pdf_text', supplier: 'Bunnings Warehouse', date: '2026-03-14',
      total_cents: 12345, gst_cents: 1122, abn: abn.replace(/ /g, ''), abn_valid: true, job_id: jobs.harriet!.id, lead_id: jobs.harriet!.lead_id,
      filename: '../../etc/receipt.pdf',
    })
    expect(d.classification_reason).toMatch(/receipt|eftpos|paid/)
    expect(d.match).toEqual({ method: 'address', reason: expect.stringContaining('27 banksia st') })
    expect(out.next_steps.map((s: { tool: string }) => s.tool)).toContain('jobs.profit_summary')
    // Stored under our own key (company/uuid), never the given name.
    const [row] = await app.owner`select storage_key, storage_backend from documents where id = ${d.id}`
    expect(row).toEqual({ storage_key: `${company.company_id}/${d.id}`, storage_backend: 'local' })
  })

  it('a photo of a printed receipt: read by OCR, filed to the client it names', async () => {
    const abn = validAbn('330049765')
    const png = await receiptPhoto(['REECE PLUMBING CENTRE', `ABN ${abn}`, 'Date 02/04/2026', 'Customer: Oscar Pemberton', 'Copper pipe 15mm   38.50',
      'GST               7.50', 'TOTAL            $82.50', 'CARD PAID - THANK YOU'])
    const out = await tool(client, 'documents.auto_file', { content_base64: b64(png) })
    expect(out.document).toMatchObject({
      document_type: 'receipt', media_type: 'image/png', text_source: 'ocr', date: '2026-04-02', total_cents: 8250, gst_cents: 750,
      abn: abn.replace(/ /g, ''), abn_valid: true, job_id: jobs.oscar!.id, match: { method: 'client_name', reason: expect.stringContaining('Oscar Pemberton') },
    })
    expect(out.document.supplier).toMatch(/REECE PLUMBING/)
  })

  it('a compliance certificate PDF: classified with its words, filed to the job at the site address, its date read', async () => {
    const pdf = await pdfOf(['Sparky Bros Electrical Pty Ltd', 'Certificate of Compliance - Electrical Work', 'Licence 123456C',
      'Installation address: 88 Ocean Parade, Coogee NSW 2034', 'Date of test: 9 May 2026', 'Work: switchboard upgrade, RCDs tested'])
    const out = await tool(client, 'documents.auto_file', { content_base64: b64(pdf), filename: 'ccew.pdf' })
    expect(out.document).toMatchObject({
      document_type: 'compliance_certificate', date: '2026-05-09', job_id: jobs.priya!.id, supplier: 'Sparky Bros Electrical Pty Ltd', total_cents: null, abn: null,
      match: { method: 'address' },
    })
    expect(out.document.classification_reason).toContain('certificate of compliance')
  })

  it('job_id given wins over the text; a document naming nothing says so and how to attach it', async () => {
    const pdf = await pdfOf(['Some Supplier', 'Invoice number 77', 'Due date 01/06/2026', 'Amount due $10.00', 'For: Harriet Nguyen'])
    const given = await tool(client, 'documents.auto_file', { content_base64: b64(pdf), job_id: jobs.priya!.id })
    expect(given.document).toMatchObject({ document_type: 'supplier_invoice', job_id: jobs.priya!.id, match: { method: 'given' }, total_cents: 1000 })
    const lost = await tool(client, 'documents.auto_file', { content_base64: b64(await pdfOf(['A note with nothing in it'])) })
    expect(lost.document).toMatchObject({ job_id: null, lead_id: null, document_type: 'other', match: { method: 'none' } })
    expect(lost.next_steps[0].tool).toBe('jobs.list')
  })
})

describe('limits: nothing is stored', () => {
  it('refuses ZIP and executable bytes by their content, naming the accepted types', async () => {
    const [rows, files] = [await rowCount(), await fileCount()]
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 1)])
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 2)])
    for (const [bytes, what] of [[zip, 'ZIP'], [exe, 'executable']] as const) {
      const err = await toolError(client, 'documents.auto_file', { content_base64: b64(bytes), filename: 'receipt.pdf' })
      expect(err.error).toBe('validation_error')
      expect(err.messages.join(' ')).toContain(what)
      expect(err.messages.join(' ')).toContain('accepted types are PDF, JPEG, PNG, HEIC, WebP')
      expect(err.message).toContain('Nothing was stored')
    }
    expect([await rowCount(), await fileCount()]).toEqual([rows, files])
  })

  it('refuses a file over the limit, over MCP and as a multipart upload, naming the limit', async () => {
    const [rows, files] = [await rowCount(), await fileCount()]
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(MAX_BYTES, 0x20)])
    const err = await toolError(client, 'documents.auto_file', { content_base64: b64(big) })
    expect(err.error).toBe('validation_error')
    expect(err.message).toContain(`(${MAX_BYTES} bytes) limit`)
    const form = new FormData()
    form.append('file', new Blob([big], { type: 'application/pdf' }), 'big.pdf')
    const res = await fetch(`${app.url}/api/v1/documents`, { method: 'POST', headers: { authorization: `Bearer ${company.api_key}` }, body: form })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { message: string }).message).toContain(`(${MAX_BYTES} bytes) limit`)
    expect([await rowCount(), await fileCount()]).toEqual([rows, files])
  })
})

describe('one document per file, served only to its company', () => {
  let documentId: string
  let fileUrl: string
  let pdf: Buffer

  it('a multipart upload files the document; the same bytes again (over MCP) answer with it', async () => {
    pdf = await pdfOf(['Tradelink', 'Receipt', 'Date: 20/02/2026', 'Paid by card', 'Total $55.00', 'GST included $5.00', 'Job site 5 Wattle Rd Leichhardt'])
    const form = new FormData()
    form.append('file', new Blob([pdf], { type: 'application/octet-stream' }), 'tradelink.pdf')
    const res = await fetch(`${app.url}/api/v1/documents`, { method: 'POST', headers: { authorization: `Bearer ${company.api_key}` }, body: form })
    const body = (await res.json()) as { document: { id: string; file_url: string; filename: string; job_id: string; total_cents: number; gst_cents: number } }
    expect(res.status).toBe(201)
    expect(body.document).toMatchObject({ filename: 'tradelink.pdf', job_id: jobs.oscar!.id, total_cents: 5500, gst_cents: 500 })
    documentId = body.document.id
    fileUrl = body.document.file_url
    const [rows, files] = [await rowCount(), await fileCount()]
    const again = await tool(client, 'documents.auto_file', { content_base64: b64(pdf) })
    expect(again.duplicate).toBe(true)
    expect(again.document.id).toBe(documentId)
    expect([await rowCount(), await fileCount()]).toEqual([rows, files])
  })

  it('the key of the company downloads it; a signed link does too; a tampered or expired link does not', async () => {
    const own = await fetch(`${app.url}/api/v1/documents/${documentId}/file`, { headers: { authorization: `Bearer ${company.api_key}` } })
    expect(own.status).toBe(200)
    expect(own.headers.get('content-type')).toBe('application/pdf')
    expect(own.headers.get('content-disposition')).toContain('attachment')
    expect(Buffer.from(await own.arrayBuffer()).equals(pdf)).toBe(true)
    const signed = await fetch(fileUrl.replace(/^https?:\/\/[^/]+/, app.url))
    expect(signed.status).toBe(200)
    expect(Buffer.from(await signed.arrayBuffer()).equals(pdf)).toBe(true)
    // One character of the signature changed (to one it is not: a signature may start with any of them).
    const tampered = await fetch(fileUrl.replace(/^https?:\/\/[^/]+/, app.url).replace(/signature=(.)/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`))
    expect(tampered.status).toBe(403)
    const url = new URL(fileUrl)
    url.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 10))
    expect((await fetch(`${app.url}${url.pathname}${url.search}`)).status).toBe(403)
    expect((await fetch(`${app.url}/api/v1/documents/${documentId}/file`)).status).toBe(401)
  })

  it('another company cannot read it, by key or by pointing its own signature at it', async () => {
    const other = await onboard(app)
    const res = await fetch(`${app.url}/api/v1/documents/${documentId}/file`, { headers: { authorization: `Bearer ${other.api_key}` } })
    expect(res.status).toBe(404)
    const link = new URL(fileUrl)
    link.searchParams.set('company', other.company_id)
    expect((await fetch(`${app.url}${link.pathname}${link.search}`)).status).toBe(403)
    // The same bytes filed by the other company are its own document, not ours.
    const otherClient = await connectHttp(app, other.api_key)
    const theirs = await tool(otherClient, 'documents.auto_file', { content_base64: b64(pdf) })
    await otherClient.close()
    expect(theirs.duplicate).toBe(false)
    expect(theirs.document.id).not.toBe(documentId)
    expect(theirs.document.job_id).toBeNull()
  })
})
