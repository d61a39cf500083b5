// JSON-RPC 2.0 and MCP constants for the server.
import { AppError } from '../../core/errors.js'

export const SERVER_INFO = { name: 'tradie-ops', title: 'Trade Business Management Service', version: '2.3.0' }
export const DEFAULT_PROTOCOL_VERSION = '2024-11-05'
export const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']
/** Methods answered without a key (the spec's four, plus the legacy initialize handshake). */
export const UNAUTHENTICATED_METHODS = ['server/discover', 'tools/list', 'resources/list', 'ping', 'initialize']

export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  // Server-defined (-32000 to -32099):
  UNAUTHORIZED: -32001,
  RESOURCE_NOT_AVAILABLE: -32002,
  FORBIDDEN: -32003,
  RATE_LIMITED: -32029,
  HEADER_MISMATCH: -32020,
} as const

export type JsonRpcId = string | number | null

export interface JsonRpcRequest {
  jsonrpc: '2.0'
  id?: JsonRpcId
  method: string
  params?: Record<string, unknown>
}

export interface JsonRpcError {
  code: number
  message: string
  data?: unknown
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcError }

/** An error answered as a JSON-RPC error object (not a tool result), with the HTTP status a lone request gets. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown, readonly httpStatus = 200, readonly headers: Record<string, string> = {}) {
    super(message)
  }
}

/** Authentication-level failures become JSON-RPC errors carrying the spec's {error, message} body. */
export function rpcErrorFromApp(error: AppError): RpcError {
  const code = error.code === 'unauthorized' ? RPC.UNAUTHORIZED
    : error.code === 'forbidden' ? RPC.FORBIDDEN
    : error.code === 'rate_limited' ? RPC.RATE_LIMITED
    : error.code === 'validation_error' ? RPC.INVALID_PARAMS
    : RPC.INTERNAL_ERROR
  return new RpcError(code, error.message, error.body(), error.status, error.headers)
}

export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : DEFAULT_PROTOCOL_VERSION
}
