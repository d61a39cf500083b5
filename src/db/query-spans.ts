// One span per SQL statement inside a trace (src/tracing.ts). postgres.js has no tracing hook, but
// every statement (tagged, unsafe, on the pool, a reserved connection or a transaction) is a Query
// object that starts running in its handle() method, on the caller's async context. That one method
// of the shared prototype is wrapped, once per process: with tracing off the wrapper is one boolean
// test per statement; on, a span named by the statement's first words (never its parameters) is
// started there and ended when the driver settles the query.
import { SpanStatusCode } from '@opentelemetry/api'
import type postgres from 'postgres'
import { startChildSpan, tracingOn } from '../tracing.js'

interface QueryInternals {
  executed: boolean
  tagged: boolean
  strings: readonly string[] | string
  resolve(value: unknown): void
  reject(error: unknown): void
  handle(): Promise<void>
}

const WORD = /^[A-Za-z_][A-Za-z0-9_.]*/

/**
 * Up to three leading keywords or names ("insert into leads", "select mark_workflow_outbox", "begin"), stopping at the first
 * token that is anything else: a literal, a parameter or a cast never reaches a span. The text of a
 * tagged query holds no parameter values anyway (they are its args); an unsafe one might (BEGIN's
 * company id in withTenant), which is why the words stop early.
 */
export function statementName(text: string): string {
  const words: string[] = []
  for (const token of text.trim().split(/\s+/, 3)) {
    const word = WORD.exec(token)?.[0]
    // A whole word, or one ending its statement ("begin;") or calling ("mark_workflow_outbox(...");
    // anything else ("id::text,", "'a literal'") ends the name before it.
    if (word && (token === word || token[word.length] === ';' || token[word.length] === '(')) words.push(word.toLowerCase())
    if (token !== word) break
  }
  return words.join(' ') || 'sql'
}

let installed = false

/** Wraps the Query prototype of this postgres.js instance's package (all instances share it). */
export function traceQueries(sql: postgres.Sql): void {
  if (installed) return
  installed = true
  // A query object is inert until awaited (or executed): this one is never run.
  const proto = Object.getPrototypeOf(sql`select 1`) as QueryInternals
  const handle = proto.handle
  proto.handle = function (this: QueryInternals) {
    if (!this.executed && tracingOn()) spanFor(this)
    return handle.call(this)
  }
}

function spanFor(query: QueryInternals): void {
  const text = typeof query.strings === 'string' ? query.strings : query.strings[0] ?? ''
  const name = statementName(text)
  const span = startChildSpan(name, { 'db.system': 'postgresql', 'db.operation.name': name.split(' ')[0]! })
  if (!span) return
  const { resolve, reject } = query
  query.resolve = (value) => {
    span.end()
    resolve(value)
  }
  query.reject = (error) => {
    // The SQLSTATE only: a driver message can quote a value ("invalid input syntax for type uuid: ...").
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as { code?: string })?.code ?? 'error' })
    span.end()
    reject(error)
  }
}
