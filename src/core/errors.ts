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
  | 'rate_limited'
  | 'payment_required'
  | 'not_implemented'
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
  rate_limited: 429,
  not_implemented: 501,
  internal_error: 500,
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
