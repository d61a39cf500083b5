import { pino, type DestinationStream, type Logger } from 'pino'
import { traceFields } from './tracing.js'

export type { Logger }

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'tradie-ops' },
    // trace_id and span_id of the active span, when tracing is on (tracing.ts).
    mixin: traceFields,
    // Never log credentials, even by accident.
    redact: ['req.headers.authorization', 'api_key', 'password', '*.password', '*.api_key'],
  }
  return destination ? pino(options, destination) : pino(options)
}

/**
 * stdout for the service's processes (main*.ts), written asynchronously (sonic-boom): a line is
 * appended to a buffer and the buffer written whenever no write is in flight, so under load many
 * lines go out in one write(2) and a request never waits on one, nor on a full pipe (a synchronous
 * destination retries a full pipe by sleeping the event loop). Nothing waits for a size or a timer,
 * so a quiet service still shows each line at once. pino flushes what is held when the process exits
 * (process.exit after a clean shutdown, an uncaught error); only a kill -9 can lose the last lines.
 */
export function stdoutDestination(): DestinationStream {
  return pino.destination({ dest: 1, sync: false })
}
