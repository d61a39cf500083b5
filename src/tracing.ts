// OpenTelemetry traces (issue 27): one trace from the HTTP request through the operation, its SQL,
// the workflow start and the activities. Tracing is per process (OpenTelemetry's API is global):
// the entry points turn it on when OTEL_EXPORTER_OTLP_ENDPOINT is configured, the tracing test with
// an in-memory exporter. Off (the default), nothing is registered, and every helper here checks one
// boolean and calls straight through: no span, no context switch, no cost to a request.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api'
import type { Resource } from '@opentelemetry/resources'
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base'
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { createRequire } from 'node:module'

// The SDK (provider, processors, resource) is required only when tracing is turned on: a process
// without tracing does not load it (a smaller heap to collect). startTracing stays synchronous.
const requireSdk = createRequire(import.meta.url)

const TRACER = 'tradie-ops'

interface Tracing {
  provider: NodeTracerProvider
  processor: SpanProcessor
  resource: Resource
}

let current: Tracing | null = null

/** True while a tracer provider is installed in this process. */
export const tracingOn = (): boolean => current !== null

/** The installed provider's span processor and resource (the worker's workflow-span sink feeds them). */
export const tracingParts = (): { processor: SpanProcessor; resource: Resource } | null => current

/**
 * Installs the process's tracer provider: spans go through `processor` (a BatchSpanProcessor around
 * an exporter by default), the W3C traceparent propagator and an AsyncLocalStorage context manager.
 * Once per process; stopTracing undoes it (tests run files one after another in one process).
 */
export function startTracing(options: { exporter?: SpanExporter; processor?: SpanProcessor; serviceName?: string }): void {
  if (current) throw new Error('startTracing: tracing is already on in this process')
  if (!options.processor && !options.exporter) throw new Error('startTracing: give an exporter or a span processor')
  const { BatchSpanProcessor } = requireSdk('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base')
  const { Resource } = requireSdk('@opentelemetry/resources') as typeof import('@opentelemetry/resources')
  const { NodeTracerProvider } = requireSdk('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node')
  const processor = options.processor ?? new BatchSpanProcessor(options.exporter!)
  const resource = new Resource({ 'service.name': options.serviceName ?? 'tradie-ops' })
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] })
  provider.register()
  current = { provider, processor, resource }
}

/**
 * Turns tracing on when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT, or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for traces alone, as the OpenTelemetry spec names them; the
 * exporter reads its headers and timeout from the same standard variables). Returns whether it did.
 */
export async function startTracingFromConfig(config: { OTEL_EXPORTER_OTLP_ENDPOINT?: string; OTEL_SERVICE_NAME: string }, env = process.env): Promise<boolean> {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return false
  // Loaded only when used: the exporter's protobuf and HTTP code is not imported by a process without it.
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http')
  const base = config.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/$/, '')
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${base}/v1/traces`
  startTracing({ exporter: new OTLPTraceExporter({ url }), serviceName: config.OTEL_SERVICE_NAME })
  return true
}

/** Flushes what is buffered and uninstalls the provider and the API's globals. */
export async function stopTracing(): Promise<void> {
  const installed = current
  if (!installed) return
  current = null
  await installed.provider.shutdown().catch(() => {})
  trace.disable()
  context.disable()
  propagation.disable()
}

const tracer = () => trace.getTracer(TRACER)

/**
 * fn inside a span that is the active one while fn runs; ended when fn settles, marked as an error
 * when it throws. With tracing off, fn() itself.
 */
export function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span | null) => Promise<T>): Promise<T> {
  if (!current) return fn(null)
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span)
    } catch (error) {
      // A refusal the caller is answered with (an AppError's 4xx) is not a failure of the service.
      const status = (error as { status?: number })?.status
      if (status === undefined || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message })
      throw error
    } finally {
      span.end()
    }
  })
}

/** A span that is not made active (a child of the active one), for code that ends it itself (SQL). */
export function startChildSpan(name: string, attributes: Attributes, kind = SpanKind.CLIENT): Span | null {
  if (!current) return null
  const parent = context.active()
  // Only inside a trace: the relay's and the sweeps' background queries would each start a trace of one span.
  if (!trace.getSpan(parent)) return null
  return tracer().startSpan(name, { attributes, kind }, parent)
}

/** The active span's W3C traceparent, to carry across a boundary (the workflow outbox row); null outside a trace. */
export function currentTraceparent(): string | null {
  if (!current || !trace.getSpan(context.active())) return null
  const carrier: Record<string, string> = {}
  propagation.inject(context.active(), carrier)
  return carrier.traceparent ?? null
}

/** fn in the trace a traceparent names (written by currentTraceparent, maybe in another process). */
export function inTraceOf<T>(traceparent: string | null | undefined, fn: () => T): T {
  if (!current || !traceparent) return fn()
  return context.with(propagation.extract(context.active(), { traceparent }), fn)
}

/** The trace and span ids of the active span, for log lines (logger.ts's mixin); {} outside a trace. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  if (!current) return {}
  const span = trace.getSpan(context.active())
  if (!span) return {}
  const { traceId, spanId } = span.spanContext()
  return { trace_id: traceId, span_id: spanId }
}

const UNTRACED_PATHS = new Set(['/metrics', '/healthz', '/readyz'])

/**
 * The HTTP server's request listener inside a server span: a caller's traceparent header is
 * continued, the span ends when the response is finished (or the connection closes). The path is
 * the one Koa logs (pathName redacts page tokens); the route is not known at this level, so the
 * operation's own span (core/execute.ts) names the operation. Metrics scrapes and health probes are not traced.
 */
export function tracedListener(listener: RequestListener, pathName: (path: string) => string): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!current) return listener(req, res)
    const rawPath = (req.url ?? '/').split('?')[0]!
    // Scrapes and probes come every few seconds and would bury the traces worth reading.
    if (UNTRACED_PATHS.has(rawPath)) return listener(req, res)
    const parent: Context = propagation.extract(context.active(), req.headers)
    const path = pathName(rawPath)
    const span = tracer().startSpan(`HTTP ${req.method}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method ?? '', 'url.path': path },
    }, parent)
    const end = () => {
      span.setAttribute('http.response.status_code', res.statusCode)
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
      span.end()
    }
    res.once('close', end)
    context.with(trace.setSpan(parent, span), () => listener(req, res))
  }
}
