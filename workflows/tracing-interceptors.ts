// Workflow interceptors for tracing (bundled by temporal/workflow-bundle.ts as a workflow interceptor
// module). A workflow started inside a trace (its start carries the trace header the client
// interceptor writes, src/temporal/tracing.ts) runs @temporalio/interceptors-opentelemetry's
// interceptors: a span for the run and one per activity it schedules, whose header carries the
// trace on to the activity. Any other run (tracing off where it was started, a schedule's, a replayed
// history from before tracing) takes the plain path: no span, and none of the extra yields that
// interceptor adds when replaying a history it did not write, so old histories replay unchanged.
import type {
  ActivityInput, LocalActivityInput, Next, StartChildWorkflowExecutionInput,
  WorkflowExecuteInput, WorkflowInboundCallsInterceptor, WorkflowInterceptors, WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow'
import { OpenTelemetryInboundInterceptor, OpenTelemetryInternalsInterceptor, OpenTelemetryOutboundInterceptor } from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js'

/** The header @temporalio/interceptors-opentelemetry keeps the trace context in. */
const TRACE_HEADER = '_tracer-data'

// Not continueAsNew: a long-lived run that continues as new (a delivery loop) would otherwise keep one
// trace open for as long as it lives; its next run starts untraced.
type Outbound = Required<Pick<WorkflowOutboundCallsInterceptor, 'scheduleActivity' | 'scheduleLocalActivity' | 'startChildWorkflowExecution'>>

/** Called once per workflow run: `traced` is decided by the run's start and holds for the run. */
export const interceptors = (): WorkflowInterceptors => {
  let traced: { inbound: OpenTelemetryInboundInterceptor; outbound: OpenTelemetryOutboundInterceptor } | null = null
  const inbound: WorkflowInboundCallsInterceptor = {
    execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>) {
      if (!(TRACE_HEADER in input.headers)) return next(input)
      traced = { inbound: new OpenTelemetryInboundInterceptor(), outbound: new OpenTelemetryOutboundInterceptor() }
      return traced.inbound.execute(input, next)
    },
  }
  const outbound: Outbound = {
    scheduleActivity: (input: ActivityInput, next) => traced ? traced.outbound.scheduleActivity(input, next) : next(input),
    scheduleLocalActivity: (input: LocalActivityInput, next) => traced ? traced.outbound.scheduleLocalActivity(input, next) : next(input),
    startChildWorkflowExecution: (input: StartChildWorkflowExecutionInput, next) => traced ? traced.outbound.startChildWorkflowExecution(input, next) : next(input),
  }
  return {
    inbound: [inbound],
    outbound: [outbound],
    internals: [{
      dispose(input, next) {
        if (traced) return new OpenTelemetryInternalsInterceptor().dispose(input, next)
        return next(input)
      },
    }],
  }
}
