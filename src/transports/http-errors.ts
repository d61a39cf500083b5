// HTTP-level failures that happen before any route runs, answered in the spec's error body:
// a body the parser cannot read, and requests Node's HTTP parser refuses outright.
import type { Duplex } from 'node:stream'
import { AppError, validationError } from '../core/errors.js'
import { MAX_BODY_TEXT } from '../core/input-guard.js'

/**
 * Whatever the body parser throws is about the request, never about us: a body over the limit,
 * a content encoding it cannot inflate (gzip that is not gzip), JSON that does not parse.
 */
export function bodyError(error: unknown): AppError {
  const e = error as { status?: number; type?: string; message?: string; code?: string }
  if (e?.status === 413 || e?.type === 'entity.too.large') {
    return new AppError('payload_too_large', `The request body is larger than ${MAX_BODY_TEXT}. Send less per call.`)
  }
  if (e?.status === 415 || e?.type === 'encoding.unsupported') {
    return validationError(['Content-Encoding: unsupported; send gzip, deflate, br or no encoding'], 'The request body could not be read.')
  }
  if (e?.type === 'entity.parse.failed') return validationError(['body: is not valid JSON'], 'The request body could not be read.')
  if (typeof e?.code === 'string' && e.code.startsWith('Z_')) {
    return validationError(['body: does not match its Content-Encoding (not valid compressed data)'], 'The request body could not be read.')
  }
  return validationError(['body: could not be read (truncated, wrongly encoded or of a different length than declared)'], 'The request body could not be read.')
}

function jsonResponse(status: number, reason: string, body: unknown): string {
  const text = JSON.stringify(body)
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
}

/**
 * Node's HTTP parser refuses bad framing and oversized headers before Koa sees the request; by
 * default it answers with an empty body. Give the caller the spec's error body instead.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
    socket.destroy()
    return
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
  const response = tooLarge
    ? jsonResponse(431, 'Request Header Fields Too Large', { error: 'validation_error', message: 'The request headers are too large. Send shorter headers (cookies, tokens).', messages: ['headers: too large'] })
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? jsonResponse(408, 'Request Timeout', { error: 'validation_error', message: 'The request took too long to arrive. Retry.', messages: ['request: timed out'] })
      : jsonResponse(400, 'Bad Request', { error: 'validation_error', message: 'The request is not valid HTTP/1.1. Check its framing and headers.', messages: ['request: malformed HTTP'] })
  socket.end(response)
}
