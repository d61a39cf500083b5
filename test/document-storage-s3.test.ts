// The S3-compatible documents store (DOCUMENTS_STORAGE=s3, the AWS SDK v3) against a real
// S3-compatible server on this machine (gofakes3): a filed document's bytes land in the bucket under
// company/uuid, come back through the key-guarded route and the signed link, and the same file twice
// is one object.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { startS3Server, type S3Server } from './helpers/s3-server.js'
import { pdfOf } from './helpers/document-samples.js'

const BUCKET = 'tradie-documents'
let s3: S3Server
let app: TestApp
let client: S3Client

beforeAll(async () => {
  s3 = await startS3Server()
  const settings = { DOCUMENTS_S3_ENDPOINT: s3.url, DOCUMENTS_S3_BUCKET: BUCKET, DOCUMENTS_S3_ACCESS_KEY_ID: 'test', DOCUMENTS_S3_SECRET_ACCESS_KEY: 'test' }
  app = await startTestApp({ config: { DOCUMENTS_STORAGE: 's3', ...settings } })
  client = new S3Client({ endpoint: s3.url, region: 'ap-southeast-2', forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } })
})
afterAll(async () => {
  client?.destroy()
  await app?.stop()
  await s3?.stop()
})

describe('documents in an S3-compatible store', () => {
  it('stores the file in the bucket under company/uuid, serves it back, and keeps one object per file', async () => {
    const company = await onboard(app)
    const pdf = await pdfOf(['Middy\'s Electrical', 'Receipt', 'Date: 03/03/2026', 'Paid EFTPOS', 'Total $220.00', 'GST $20.00'])
    const call = () => app.call('POST', '/api/v1/documents', { key: company.api_key, body: { content_base64: pdf.toString('base64'), filename: 'middys.pdf' } })
    const res = await call()
    expect(res.status).toBe(201)
    const d = res.body.document
    expect(d).toMatchObject({ storage_backend: 's3', document_type: 'receipt', total_cents: 22000, gst_cents: 2000, date: '2026-03-03' })

    const key = `${company.company_id}/${d.id}`
    const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(pdf)).toBe(true)

    const byKey = await fetch(`${app.url}/api/v1/documents/${d.id}/file`, { headers: { authorization: `Bearer ${company.api_key}` } })
    expect(byKey.status).toBe(200)
    expect(Buffer.from(await byKey.arrayBuffer()).equals(pdf)).toBe(true)
    const signed = await fetch(d.file_url.replace(/^https?:\/\/[^/]+/, app.url))
    expect(Buffer.from(await signed.arrayBuffer()).equals(pdf)).toBe(true)

    const again = await call()
    expect(again.body).toMatchObject({ duplicate: true, document: { id: d.id } })
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${company.company_id}/` }))
    expect(listed.Contents?.map((o) => o.Key)).toEqual([key])
  })
})
