import { pino, type DestinationStream, type Logger } from 'pino'
import { traceFields, tracingOn } from './tracing.js'

export type { Logger }

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'tradie-ops' },
    // trace_id and span_id of the active span, when tracing is on (tracing.ts).
    mixin: traceFields,
    // Never log credentials, even by accident (redactSecrets below).
    formatters: { log: redactSecrets },
  }
  return destination ? pino(options, destination) : pino(options)
}

/** The fields of the one line logged per HTTP request (app.ts). */
export interface RequestLine {
  requestId: string
  method: string
  path: string
  status: number
  ms: number
  companyId?: string
}

/**
 * Logs the request line, in exactly the JSON pino writes for `logger.info(line, 'request')` (the
 * test compares the two), written straight to the logger's own destination so it stays in order
 * with the other lines. It is the one log call every request makes, so it skips pino's general path
 * (the mixin, a stringifier per key, redactSecrets): its fields are fixed and none is a secret
 * (the path is already redacted). With tracing on it goes through pino, whose mixin adds the ids.
 */
export function logRequest(logger: Logger, line: RequestLine): void {
  if (!logger.isLevelEnabled('info')) return
  if (tracingOn()) {
    logger.info(line, 'request')
    return
  }
  const internals = logger as unknown as Record<symbol, unknown>
  const destination = internals[pino.symbols.streamSym] as { write(text: string): unknown }
  const bindings = internals[pino.symbols.chindingsSym] as string
  const company = line.companyId === undefined ? '' : `,"companyId":${JSON.stringify(line.companyId)}`
  destination.write(`{"level":${logger.levels.values.info},"time":${Date.now()}${bindings},"requestId":${JSON.stringify(line.requestId)},` +
    `"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},"status":${line.status},"ms":${line.ms}${company},"msg":"request"}\n`)
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

const CENSOR = '[Redacted]'
const SECRET_KEYS: readonly string[] = ['api_key', 'password']

/**
 * What pino's `redact: ['api_key', 'password', '*.api_key', '*.password', 'req.headers.authorization']`
 * did, as one pass over the line's top-level keys: a secret at the top level or one level down is
 * replaced by [Redacted] in a copy (the caller's object is left as it was). pino's own redaction
 * with a wildcard path runs a redacting stringifier over every value of every line, the request log
 * line included; this looks at each key once and copies only when something is censored.
 */
export function redactSecrets(line: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null
  for (const key in line) {
    const value = line[key]
    if (SECRET_KEYS.includes(key)) {
      ;(copy ??= { ...line })[key] = CENSOR
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const censored = censorChildren(value as Record<string, unknown>, key === 'req')
      if (censored !== value) (copy ??= { ...line })[key] = censored
    }
  }
  return copy ?? line
}

function censorChildren(object: Record<string, unknown>, isRequest: boolean): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null
  for (const secret of SECRET_KEYS) {
    if (Object.hasOwn(object, secret)) (copy ??= copyOf(object))[secret] = CENSOR
  }
  const headers = object.headers as Record<string, unknown> | undefined
  if (isRequest && headers && typeof headers === 'object' && Object.hasOwn(headers, 'authorization')) {
    ;(copy ??= copyOf(object)).headers = { ...headers, authorization: CENSOR }
  }
  return copy ?? object
}

// An Error keeps its prototype, message and stack, so pino's err serializer still reads it as one.
function copyOf(object: Record<string, unknown>): Record<string, unknown> {
  if (!(object instanceof Error)) return { ...object }
  return Object.assign(Object.create(Object.getPrototypeOf(object) as object) as Record<string, unknown>, object, { message: object.message, stack: object.stack })
}
