// OpenTelemetry traces (issue 27): one MCP tool call that starts a workflow (leads.create, whose
// instant response runs activities) is one trace, from the HTTP request through the operation, its
// SQL, the workflow start (through the outbox row's traceparent) and the activities; spans carry no
// input values; the service's log lines inside it carry its ids; and with tracing off nothing is made.
import { execFile, execFileSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { statementName } from '../src/db/query-spans.js'
import { currentTraceparent, startTracing, stopTracing, traceFields, withSpan } from '../src/tracing.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'

const exporter = new InMemorySpanExporter()
let app: TestApp
let client: Client
let company: Awaited<ReturnType<typeof onboard>>

beforeAll(async () => {
  // Before the app: its Temporal client and worker take their interceptors when they are made.
  startTracing({ processor: new SimpleSpanProcessor(exporter) })
  app = await startTestApp()
  company = await onboard(app, { plan: 'business' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
  await stopTracing()
})

const idOf = (s: ReadableSpan) => s.spanContext().spanId
const traceOf = (s: ReadableSpan) => s.spanContext().traceId

describe('tracing', () => {
  it('follows one MCP tool call from HTTP through the operation, its SQL, the workflow start and the activities', async () => {
    exporter.reset()
    const name = 'Tracey Spanner'
    const phone = '0412 345 678'
    const { lead } = await tool(client, 'leads.create', { name, phone })

    const operation = await waitFor(async () => exporter.getFinishedSpans().find((s) => s.name === 'operation leads.create'), Boolean)
    const trace = traceOf(operation!)
    const inTrace = () => exporter.getFinishedSpans().filter((s) => traceOf(s) === trace)
    // The instant response runs after the answer: wait for its run's span, ended when the run is.
    const spans = await waitFor(async () => inTrace(), (all) => all.some((s) => s.name === 'RunWorkflow:instantResponse'))

    const http = spans.find((s) => s.name === 'HTTP POST' && s.attributes['url.path'] === '/api/v1/mcp')
    expect(http, 'the HTTP server span').toBeDefined()
    expect(http!.parentSpanId).toBeUndefined()
    expect(operation!.parentSpanId).toBe(idOf(http!))
    expect(operation!.attributes).toMatchObject({ operation: 'leads.create', transport: 'mcp', status: 200 })

    const sql = spans.filter((s) => s.attributes['db.system'] === 'postgresql')
    expect(sql.some((s) => s.name === 'insert into leads' && s.parentSpanId === idOf(operation!))).toBe(true)
    expect(sql.some((s) => s.name === 'insert into workflow_outbox')).toBe(true)

    const start = spans.find((s) => s.name === 'StartWorkflow:instantResponse')
    expect(start, 'the workflow start span').toBeDefined()
    const run = spans.find((s) => s.name === 'RunWorkflow:instantResponse')
    expect(run?.parentSpanId).toBe(idOf(start!))
    const activities = spans.filter((s) => s.name.startsWith('RunActivity:')).map((s) => s.name)
    expect(activities).toEqual(expect.arrayContaining(['RunActivity:planInstantResponse', 'RunActivity:sendMessage', 'RunActivity:markLeadContacted']))
    // An activity's own statements are its children, in the same trace.
    const send = spans.find((s) => s.name === 'RunActivity:sendMessage')!
    expect(sql.some((s) => s.parentSpanId === idOf(send))).toBe(true)

    // No input value reaches a span: names and attributes hold none of the lead's details or the key.
    // (Ids do: Temporal's spans name the workflow, whose id is built from the company's and the lead's.)
    const shown = JSON.stringify(spans.map((s) => [s.name, s.attributes]))
    for (const value of [name, phone, '0412345678', '+61412345678', company.api_key]) expect(shown).not.toContain(value)
    expect(start!.attributes.temporalWorkflowId).toContain(lead.id)

    // The request's log line (written inside the HTTP span) carries its trace id.
    const logged = app.logs.find((l) => l.msg === 'request' && l.trace_id === trace)
    expect(logged).toMatchObject({ path: '/api/v1/mcp', span_id: idOf(http!) })
  })

  it('starts a workflow the relay picks up later in the trace of the request that queued it', async () => {
    // An outbox row whose after-commit start never happened (a crash in between), queued inside a
    // trace: the relay starts it later, in that trace. (A copy of the first test's row, run again.)
    exporter.reset()
    const traceparent = await withSpan('queued elsewhere', {}, async () => currentTraceparent())
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
    const trace = traceparent!.split('-')[1]
    const [row] = await app.owner<{ workflow_id: string }[]>`
      insert into workflow_outbox (company_id, workflow_type, workflow_id, input, traceparent, created_at)
      select company_id, workflow_type, workflow_id || '-relayed', input, ${traceparent}, now() - interval '1 minute'
      from workflow_outbox where workflow_type = 'instantResponse' and company_id = ${company.company_id}
      returning workflow_id`
    expect(row).toBeDefined()
    const spans = await waitFor(async () => exporter.getFinishedSpans().filter((s) => traceOf(s) === trace),
      (all) => all.some((s) => s.name === 'RunWorkflow:instantResponse') && all.some((s) => s.name === 'select mark_workflow_outbox'))
    expect(spans.find((s) => s.name === 'StartWorkflow:instantResponse')?.attributes).toMatchObject({ temporalWorkflowId: row!.workflow_id })
  })

  it('leaves health probes and metrics scrapes out (they would bury the traces worth reading)', async () => {
    exporter.reset()
    for (const path of ['/healthz', '/readyz', '/metrics']) expect((await app.call('GET', path)).status).toBe(200)
    expect((await app.call('GET', '/api/v1/leads', { key: company.api_key })).status).toBe(200)
    const http = await waitFor(async () => exporter.getFinishedSpans().filter((s) => s.name.startsWith('HTTP ')), (spans) => spans.length > 0)
    expect(http.map((s) => s.attributes['url.path'])).toEqual(['/api/v1/leads'])
  })

  it('names a statement by its leading words only', () => {
    expect(statementName('\n    insert into leads (company_id, name) values ($1, $2)')).toBe('insert into leads')
    expect(statementName("begin; select set_config('app.company_id', '0b4f...', true)")).toBe('begin')
    expect(statementName('select id::text, company_id from x')).toBe('select')
    expect(statementName('select mark_workflow_outbox($1, $2)')).toBe('select mark_workflow_outbox')
    expect(statementName("select 'secret'")).toBe('select')
    expect(statementName('')).toBe('sql')
  })

  it('puts trace_id and span_id on the service logger\'s lines inside a span, and nothing outside one', () => {
    // createLogger writes to the process's stdout: a child process shows what it writes.
    const script = `
      import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base'
      import { createLogger } from './src/logger.ts'
      import { startTracing, withSpan } from './src/tracing.ts'
      const logger = createLogger('info')
      logger.info('before tracing')
      startTracing({ exporter: new InMemorySpanExporter() })
      logger.info('outside a span')
      await withSpan('work', {}, async (span) => logger.info({ expected: span.spanContext().traceId }, 'inside a span'))
    `
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.map((l) => l.msg)).toEqual(['before tracing', 'outside a span', 'inside a span'])
    expect(lines[0]).not.toHaveProperty('trace_id')
    expect(lines[1]).not.toHaveProperty('trace_id')
    expect(lines[2]!.trace_id).toBe(lines[2]!.expected)
    expect(lines[2]!.span_id).toMatch(/^[0-9a-f]{16}$/)
  })

  it('exports to an OTLP/HTTP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const received: { path: string; type: string; body: string }[] = []
    const collector = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        received.push({ path: req.url!, type: req.headers['content-type'] ?? '', body })
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve))
    try {
      const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`
      // A process of its own: this one already has its provider. stopTracing flushes the batch.
      const script = `
        import { startTracingFromConfig, stopTracing, withSpan } from './src/tracing.ts'
        if (!await startTracingFromConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ${JSON.stringify(endpoint)}, OTEL_SERVICE_NAME: 'otlp-probe' }, {})) throw new Error('not started')
        await withSpan('probe span', { probe: true }, async () => {})
        await stopTracing()
      `
      await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script])
      expect(received.length).toBeGreaterThan(0)
      expect(received[0]!.path).toBe('/v1/traces')
      const body = received.map((r) => r.body).join('')
      expect(body).toContain('probe span')
      expect(body).toContain('otlp-probe')
    } finally {
      collector.close()
    }
  })

  it('is off, at no cost, when not started: no span, no traceparent, no log fields', async () => {
    await stopTracing()
    try {
      exporter.reset()
      await withSpan('ignored', {}, async (span) => {
        expect(span).toBeNull()
        expect(currentTraceparent()).toBeNull()
        expect(traceFields()).toEqual({})
      })
      expect((await app.call('GET', '/api/v1/leads', { key: company.api_key })).status).toBe(200)
      expect(exporter.getFinishedSpans()).toEqual([])
    } finally {
      startTracing({ processor: new SimpleSpanProcessor(exporter) })
    }
  })
})
