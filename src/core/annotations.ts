// MCP tool annotations for the common cases.
import type { McpAnnotations } from './operation.js'

export const READ: McpAnnotations = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false }
export const WRITE: McpAnnotations = { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false }
/** Writes that reach the outside world (SMS, email, payment processors, partner systems). */
export const SEND: McpAnnotations = { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: true }
