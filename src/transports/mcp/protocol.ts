// JSON-RPC 2.0 and MCP constants for the server. The one source of the protocol versions and the
// request limits: the handler, GET /api/v1/mcp and the discovery documents all read them here.
import { AppError } from '../../core/errors.js'
import { INPUT_LIMITS } from '../../core/input-guard.js'

export const SERVER_INFO = { name: 'tradie-ops', title: 'Trade Business Management Service', version: '2.3.0' }
/** Oldest first. The MCP revisions this server speaks. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']
/** The newest revision we speak: initialize answers it to a client asking for one we do not. */
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1]!
/** The version the spec says the server reports (§9), and what initialize answers when none is asked for. */
export const DEFAULT_PROTOCOL_VERSION = '2024-11-05'
/** Methods answered without a key (the spec's four, plus the legacy initialize handshake). */
export const UNAUTHENTICATED_METHODS = ['server/discover', 'tools/list', 'resources/list', 'ping', 'initialize']

/** Largest POST body (a request or a batch), in bytes: the same limit as every REST body. */
export const MAX_REQUEST_BODY_BYTES = INPUT_LIMITS.maxBodyBytes
/**
 * Most items in one JSON-RPC batch, checked before any item runs. Items run one after another (a
 * later call may use an earlier one's result), so 20 writes stay within a couple of seconds, far
 * under proxy timeouts; MCP dropped batches in 2025-06-18, so SDK clients never send them.
 */
export const MAX_BATCH_ITEMS = 20
/**
 * Once a batch's responses add up to more than this, its remaining items are not run and each gets
 * an error saying so. Same as the request cap: 1 MB of JSON is already more than an agent's context
 * can use in one turn, and a batch of small calls never comes near it.
 */
export const MAX_BATCH_RESPONSE_BYTES = 1024 * 1024
/** Mcp-Method / Mcp-Name response headers carry a value only if it is this short and plain. */
export const MAX_ROUTE_HEADER_LENGTH = 256

/** The limits as GET /api/v1/mcp and server/discover publish them. */
export const LIMITS = {
  max_request_body_bytes: MAX_REQUEST_BODY_BYTES,
  max_batch_items: MAX_BATCH_ITEMS,
  max_batch_response_bytes: MAX_BATCH_RESPONSE_BYTES,
}

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
  NOT_FOUND: -32004,
  BATCH_RESPONSE_LIMIT: -32010,
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

/** A JSON-RPC error response with no request id (the request could not be read or was refused whole). */
export function rpcErrorBody(code: number, message: string, data?: unknown) {
  return { jsonrpc: '2.0' as const, id: null, error: { code, message, ...(data !== undefined ? { data } : {}) } }
}

export const isSupportedVersion = (version: unknown): boolean =>
  typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version)

/**
 * initialize: the client's version when we speak it; otherwise, as the MCP lifecycle asks, the
 * latest we speak (the client then decides whether it can use it). A client naming no version at
 * all predates versioning: it gets the spec's 2024-11-05.
 */
export function negotiateVersion(requested: unknown): string {
  if (isSupportedVersion(requested)) return requested as string
  return requested === undefined || requested === null ? DEFAULT_PROTOCOL_VERSION : LATEST_PROTOCOL_VERSION
}

/** What GET /api/v1/mcp, server/discover and the discovery documents say about versions. */
export const PROTOCOL_VERSIONS = {
  protocolVersion: DEFAULT_PROTOCOL_VERSION,
  latestProtocolVersion: LATEST_PROTOCOL_VERSION,
  supportedVersions: SUPPORTED_PROTOCOL_VERSIONS,
}
