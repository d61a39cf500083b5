// Temporal's side of tracing (src/tracing.ts): @temporalio/interceptors-opentelemetry's client
// interceptor puts the active trace in a workflow start's header, the workflow interceptors
// (workflows/tracing-interceptors.ts, in the bundle) carry it to each activity's header, and the
// activity interceptor continues it around the activity (its SQL spans are children). Installed
// only while tracing is on: off, the client and the activities run without interceptors.
import type { WorkflowClientInterceptor } from '@temporalio/client'
import type { InjectedSinks, WorkerOptions } from '@temporalio/worker'
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry'
import { createRequire } from 'node:module'
import { tracingOn, tracingParts } from '../tracing.js'

// Required only while tracing is on (or by a worker, for its sink): the API process without
// tracing does not load the interceptors nor the worker SDK they pull in.
const require = createRequire(import.meta.url)
const interceptors = () => require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry')

/** The client's workflow interceptors: the start's span and trace header, when tracing is on. */
export function tracingClientInterceptors(): WorkflowClientInterceptor[] {
  return tracingOn() ? [new (interceptors().OpenTelemetryWorkflowClientInterceptor)()] : []
}

/**
 * The worker's part: activity interceptors while tracing is on, and always the sink the workflow
 * interceptors export their spans to (a run started in a traced process may land on a worker
 * without tracing; its spans are then dropped here, not reported as a call to a missing sink).
 */
export function tracingWorkerOptions(): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const parts = tracingParts()
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } = interceptors()
  const sinks: InjectedSinks<OpenTelemetrySinks> = {
    exporter: parts ? makeWorkflowExporter(parts.processor, parts.resource) : { export: { fn: () => {}, callDuringReplay: false } },
  }
  if (!parts) return { sinks }
  return {
    sinks,
    interceptors: {
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    },
  }
}
