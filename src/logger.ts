import { writeSync } from 'node:fs'
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

/** A batch of lines is written at most this long after its first line... */
export const STDOUT_FLUSH_MS = 10
/** ...or as soon as it holds this many bytes: a pipe write up to PIPE_BUF (4 KiB) is atomic. */
const STDOUT_BATCH_BYTES = 4096

/**
 * stdout for the service's processes (main*.ts), in batches written asynchronously. A line joins
 * the batch; the batch goes to pino's asynchronous destination (sonic-boom, which writes whenever
 * no write is in flight and never blocks on a full pipe) 10 ms after its first line or once it
 * reaches 4 KiB, whichever comes first. Under load that is one write(2) per dozen or more request
 * lines instead of one per line: a write to a pipe cost about 35 us of CPU a line (measured with a
 * reader on the pipe), a tenth of a GET /leads. A quiet service shows each line within 10 ms. On
 * exit (process.exit after a clean shutdown, an uncaught error) the batch and sonic-boom's buffer
 * are written synchronously; only a kill -9 can lose the last lines, as before.
 */
export function stdoutDestination(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: false })
  let batch = ''
  let timer: NodeJS.Timeout | null = null
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = null
    if (batch) out.write(batch)
    batch = ''
  }
  // After pino's own exit handler for `out` (registered when it was made), which has written what
  // sonic-boom held: the batch is newer, so it follows, written synchronously (an asynchronous
  // write started now would never finish).
  process.once('exit', () => {
    if (timer) clearTimeout(timer)
    if (batch) writeAllSync(batch)
  })
  return {
    write(line: string) {
      if (batch.length + line.length > STDOUT_BATCH_BYTES) flush()
      batch += line
      if (timer === null) {
        timer = setTimeout(flush, STDOUT_FLUSH_MS)
        timer.unref()
      }
    },
  }
}

/** text to stdout before the process ends; a full pipe is retried every 10 ms for up to a second. */
function writeAllSync(text: string): void {
  let rest = Buffer.from(text)
  for (let waits = 0; rest.length > 0 && waits < 100;) {
    try {
      rest = rest.subarray(writeSync(1, rest))
    } catch (error) {
      if ((error as { code?: string }).code !== 'EAGAIN') return // stdout closed: nothing more can be written
      waits++
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
    }
  }
}
