// The API process loads only what serving requests needs (issue 27 item 9): the Temporal worker SDK,
// the OpenTelemetry SDK and the third-party SDKs behind providers and documents are loaded on first
// use, not when the API starts. Measured: with them loaded at start the API's heap was about 100 MB
// and its garbage collection cost about a tenth of its requests per second (docs/decisions.md).
// Checked in a fresh process that imports what main-api.ts imports, recording every module loaded.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const LOADED_ONLY_ON_USE = [
  '@temporalio/worker', '@temporalio/interceptors-opentelemetry', '@opentelemetry/sdk-trace-node', '@opentelemetry/sdk-trace-base',
  'xero-node', 'openai', 'stripe', '@aws-sdk/client-s3', 'nodemailer', 'pdfkit', 'unpdf', 'tesseract.js', 'sanitize-html',
  'html-to-text', 'date-holidays',
]

const script = `
import { registerHooks, createRequire } from 'node:module'
const seen = new Set()
registerHooks({ load(url, context, next) { seen.add(url); return next(url, context) } })
await import('./src/runtime.ts'); await import('./src/app.ts'); await import('./src/domains/index.ts'); await import('./src/main-api.ts').catch(() => {})
for (const k of Object.keys(createRequire(import.meta.url).cache)) seen.add(k)
const packages = new Set([...seen].map((u) => /node_modules\\/((@[^/]+\\/)?[^/]+)\\//.exec(u)?.[1]).filter(Boolean))
console.log(JSON.stringify([...packages]))
`

describe('the API process', () => {
  it('does not load the worker, tracing or provider SDKs when it starts', () => {
    // main-api.ts would start a server; the import is made to fail fast (no database) after its imports ran.
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(), encoding: 'utf8', timeout: 60_000,
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', NODE_OPTIONS: '' },
    })
    const packages = JSON.parse(out.trim().split('\n').pop()!) as string[]
    // The recording works: what the API does need is there (CommonJS and ES modules both).
    expect(packages).toEqual(expect.arrayContaining(['koa', 'postgres', 'typebox', '@temporalio/client', 'pino']))
    expect(packages.filter((p) => LOADED_ONLY_ON_USE.includes(p))).toEqual([])
  })
})
