import { pino, type Logger } from 'pino'
import { traceFields } from './tracing.js'

export type { Logger }

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'tradie-ops' },
    // trace_id and span_id of the active span, when tracing is on (tracing.ts).
    mixin: traceFields,
    // Never log credentials, even by accident.
    redact: ['req.headers.authorization', 'api_key', 'password', '*.password', '*.api_key'],
  })
}
