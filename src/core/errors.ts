// The spec's error body: {error, message} plus the extras some codes carry.

export type ErrorCode =
  | 'validation_error'
  | 'invalid_plan'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'email_taken'
  | 'conflict'
  | 'idempotency_conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'payment_required'
  | 'payment_account_required'
  | 'insufficient_credit'
  | 'not_implemented'
  | 'worker_unavailable'
  | 'database_unavailable'
  | 'internal_error'

const statusByCode: Record<ErrorCode, number> = {
  validation_error: 400,
  invalid_plan: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  email_taken: 409,
  conflict: 409,
  idempotency_conflict: 409,
  payment_account_required: 409,
  /** The wallet does not cover a tool call's price (SPEC 8): deposit with wallet.deposit. */
  insufficient_credit: 402,
  payload_too_large: 413,
  rate_limited: 429,
  not_implemented: 501,
  internal_error: 500,
  /** A Temporal worker did not answer in time (none running): operational, never caused by the input. */
  worker_unavailable: 503,
  /** The database connection dropped mid-call (Postgres restarted or failed over): operational, retryable. */
  database_unavailable: 503,
}

/** Every code the service answers with. */
export const ERROR_CODES = Object.keys(statusByCode) as ErrorCode[]

/** The HTTP status every error code is answered with (undefined for a code we never send). */
export function statusOfCode(code: string): number | undefined {
  return Object.hasOwn(statusByCode, code) ? statusByCode[code as ErrorCode] : undefined
}

export class AppError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers that belong with this error (Retry-After, WWW-Authenticate). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.status = statusByCode[code]
  }

  body(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.extra }
  }
}

export const validationError = (messages: string[], message = 'The request failed validation.') =>
  new AppError('validation_error', message, { messages })

export const notFound = (what: string) => new AppError('not_found', `${what} was not found.`)

export const rateLimited = (retryAfterSeconds: number, message: string) =>
  new AppError('rate_limited', message, { retry_after_seconds: retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) })

/**
 * Safety net: Postgres "data exception" (SQLSTATE class 22) means a value the caller sent could not
 * be stored or compared (out of range, not valid text). Validation should have caught it; it is
 * still the caller's input, so validation_error, and the log keeps the detail to tighten the schema.
 */
export function fromDataException(error: unknown): AppError | null {
  const code = (error as { code?: unknown })?.code
  if (typeof code !== 'string' || !/^22[0-9A-Z]{3}$/.test(code)) return null
  return validationError(['input: a value is out of range or not valid text for this field'])
}

/** Seconds a caller is told to wait after the database connection dropped: reconnecting takes about that. */
export const DATABASE_RETRY_SECONDS = 2

// How a lost database connection shows itself: postgres.js's own codes, the socket's, SQLSTATE class
// 08 (connection exception), 57P01-57P03 (the server shutting down, crashed, or not yet accepting)
// and 53300 (no connection slot left, for the server or the role): retrying later is the answer.
const CONNECTION_LOST = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '57P01', '57P02', '57P03', '53300'])

/**
 * A database connection that dropped during the call, as 503 database_unavailable with Retry-After,
 * or null for any other error. The call may have been applied or not (a connection can drop during
 * COMMIT), so the message says to read a write back before sending it again.
 */
export function fromDatabaseOutage(error: unknown): AppError | null {
  const code = (error as { code?: unknown })?.code
  if (typeof code !== 'string' || !(CONNECTION_LOST.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return null
  return new AppError(
    'database_unavailable',
    `The database connection dropped or could not be opened during this call (the database restarted, failed over or had no connection free). Retry in ${DATABASE_RETRY_SECONDS} s. ` +
      'A write may or may not have been saved: read it back before sending it again.',
    { retry_after_seconds: DATABASE_RETRY_SECONDS },
    { 'Retry-After': String(DATABASE_RETRY_SECONDS) },
  )
}
