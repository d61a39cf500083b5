// One JSON-RPC message in, one response (or none, for a notification) out. Shared by the
// streamable-HTTP endpoint and the legacy SSE transport.
import { formatCents } from '../../core/money.js'
import { PRICES_IN_WORDS } from '../../core/cost.js'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import type { Registry } from '../../core/registry.js'
import { errorInTransport, nextStepsInTransport } from '../../core/next-step.js'
import { AppError, fromDatabaseOutage } from '../../core/errors.js'
import { authorize, countApiCall } from '../../core/auth.js'
import { execute, isAccessError } from '../../core/execute.js'
import { listTools, findTool, encodeCursor, decodeCursor, viewWithParams, type CatalogueView } from './catalogue.js'
import { describeResource } from './resources.js'
import { summarize, wantsFullText } from './result-text.js'
import { describeFilters } from './server-info.js'
import {
  LIMITS, PROTOCOL_VERSIONS, RPC, RpcError, SERVER_INFO, UNAUTHENTICATED_METHODS, negotiateVersion, rpcErrorFromApp,
  type JsonRpcId, type JsonRpcRequest, type JsonRpcResponse,
} from './protocol.js'

export interface McpCallContext {
  deps: Deps
  registry: Registry
  view: CatalogueView
  requestId: string
  clientIp: string
  /** MCP-Protocol-Version as the client sent it (absent before 2025-06-18). */
  protocolVersion?: string
  /** Resolves the Bearer key (counting the call); throws AppError. */
  authenticate(): Promise<Principal>
}

/** The method and its target (tool name, resource URI, else the method again), as the client sent them. */
export interface Route {
  method: string
  name: string
}

export interface Handled {
  response: JsonRpcResponse | null
  /** HTTP status a lone request should get (401/403/429 for auth failures). */
  httpStatus: number
  headers: Record<string, string>
  /** Null when the message was not a well-formed JSON-RPC request. */
  route: Route | null
}

const CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } }
// What every agent reads first, so it also says how to keep the catalogue and the results small.
export const INSTRUCTIONS = [
  'Run an Australian trade business: leads, quotes, jobs, invoices, billing. Tools are named <domain>.<action>; read tools are idempotent. Money is AUD; GST 10%.',
  'Keep the tool list small: tools/list takes params {"toolsets": ["core"]} (one job: lead, quote, job, paid invoice, review), {"names": ["leads.create", "quotes.send"]} or {"read_only": true}; the same as ?toolsets=, ?tools=, ?read_only= on the MCP URL.',
  'A listing of named tools carries their output schemas; other listings leave them out unless {"output_schemas": true}.',
  'Write tools take idempotency_key: after a timeout, retry with the same key and arguments; it runs once and returns the first result for 24 h (other arguments: idempotency_conflict).',
  'A tool result\'s text is a short summary; every field is in structuredContent. For the whole JSON as text, send _meta {"full_text": true} on tools/call or connect with ?full_text=true.',
  'A write tool\'s result carries next_steps: the tools to call next, with the ids to pass and why (also at the end of its text summary). Tools that message a customer take dry_run: true to show the exact text first.',
].join(' ')

/** The instructions with what tool calls cost: the wallet's prices and the credit a company starts with. */
export function instructions(config: Deps['config']): string {
  if (!config.WALLET_CHARGING) return INSTRUCTIONS
  return `${INSTRUCTIONS} Tool calls are paid from the company's credit wallet: ${PRICES_IN_WORDS}. A new company starts with ${formatCents(config.WALLET_STARTING_CREDIT_CENTS)}; wallet.balance shows it and wallet.deposit adds more (an insufficient_credit result says when it runs out).`
}

function isRequest(msg: unknown): msg is JsonRpcRequest {
  const m = msg as JsonRpcRequest
  return typeof m === 'object' && m !== null && !Array.isArray(m) && m.jsonrpc === '2.0' && typeof m.method === 'string' &&
    (m.id === undefined || m.id === null || typeof m.id === 'string' || typeof m.id === 'number') &&
    (m.params === undefined || (typeof m.params === 'object' && m.params !== null))
}

export function requestName(msg: JsonRpcRequest): string {
  const p = msg.params ?? {}
  if (msg.method === 'tools/call' && typeof p.name === 'string') return p.name
  if (msg.method === 'resources/read' && typeof p.uri === 'string') return p.uri
  return msg.method
}

/** The id of a message, when it has a valid one; null otherwise (JSON-RPC's rule for unreadable requests). */
export function messageId(msg: unknown): JsonRpcId {
  const id = (msg as { id?: unknown } | null)?.id
  return typeof id === 'string' || typeof id === 'number' ? id : null
}

export async function handleMessage(ctx: McpCallContext, msg: unknown): Promise<Handled> {
  if (!isRequest(msg)) {
    return errorReply(messageId(msg), new RpcError(RPC.INVALID_REQUEST, 'Invalid JSON-RPC 2.0 request: need jsonrpc "2.0", a string method, and an optional id and params object.'), null)
  }
  const route = { method: msg.method, name: requestName(msg) }
  const isNotification = msg.id === undefined
  try {
    const result = await dispatch(ctx, msg)
    if (isNotification) return { response: null, httpStatus: 204, headers: {}, route }
    return { response: { jsonrpc: '2.0', id: msg.id ?? null, result }, httpStatus: 200, headers: {}, route }
  } catch (error) {
    if (isNotification) return { response: null, httpStatus: 204, headers: {}, route }
    const rpc = error instanceof RpcError ? error
      : error instanceof AppError ? rpcErrorFromApp(error)
      : internal(ctx, error)
    return errorReply(msg.id ?? null, rpc, route)
  }
}

/** A request answered with an error without running it (a batch past its response limit). */
export function refusedReply(msg: unknown, error: RpcError): Handled {
  const route = isRequest(msg) ? { method: msg.method, name: requestName(msg) } : null
  if (isRequest(msg) && msg.id === undefined) return { response: null, httpStatus: 204, headers: {}, route }
  return errorReply(messageId(msg), error, route)
}

function errorReply(id: JsonRpcId, error: RpcError, route: Route | null): Handled {
  return {
    response: { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } },
    httpStatus: error.httpStatus,
    headers: error.headers,
    route,
  }
}

function internal(ctx: McpCallContext, error: unknown): RpcError {
  const outage = fromDatabaseOutage(error)
  if (outage) return rpcErrorFromApp(outage)
  ctx.deps.logger.error({ err: error, requestId: ctx.requestId }, 'MCP handler failed')
  return new RpcError(RPC.INTERNAL_ERROR, 'Internal error. Retry, or contact support with the X-Request-Id header value.', { error: 'internal_error' }, 500)
}

/** The transport's own access rule: the plan's mcpAccess flag. Throws forbidden. */
export function requireMcpAccess(principal: Principal): Principal {
  authorize({ permission: 'read' }, principal, 'mcpAccess')
  return principal
}

/** A key, and the plan's mcpAccess flag. */
async function requireMcpPrincipal(ctx: McpCallContext): Promise<Principal> {
  return requireMcpAccess(await ctx.authenticate())
}

async function dispatch(ctx: McpCallContext, msg: JsonRpcRequest): Promise<unknown> {
  const params = msg.params ?? {}
  switch (msg.method) {
    case 'initialize':
      return { protocolVersion: negotiateVersion(params.protocolVersion), capabilities: CAPABILITIES, serverInfo: SERVER_INFO, instructions: instructions(ctx.deps.config) }
    case 'ping':
      return {}
    case 'server/discover':
      return {
        ...PROTOCOL_VERSIONS,
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: instructions(ctx.deps.config),
        authentication: { scheme: 'bearer', unauthenticatedMethods: UNAUTHENTICATED_METHODS },
        limits: LIMITS,
        filters: describeFilters(ctx.registry),
      }
    case 'tools/list':
      return listTools(ctx.registry, viewWithParams(ctx.view, params), params.cursor)
    case 'resources/list': {
      const offset = decodeCursor(params.cursor, 'resources')
      const page = ctx.registry.resources.slice(offset, offset + 50)
      const next = offset + 50 < ctx.registry.resources.length ? encodeCursor(offset + 50, 'resources') : undefined
      return { resources: page.map(describeResource), ...(next ? { nextCursor: next } : {}) }
    }
    case 'resources/templates/list':
      return { resourceTemplates: [] }
    case 'resources/read':
      return readResource(ctx, params)
    case 'tools/call':
      return callTool(ctx, params)
    default:
      if (msg.method.startsWith('notifications/')) return {}
      throw new RpcError(RPC.METHOD_NOT_FOUND, `Method not found: ${msg.method}`)
  }
}

async function readResource(ctx: McpCallContext, params: Record<string, unknown>) {
  if (typeof params.uri !== 'string') throw new RpcError(RPC.INVALID_PARAMS, 'resources/read needs params.uri')
  const resource = ctx.registry.resources.find((r) => r.uri === params.uri)
  if (!resource) throw new RpcError(RPC.INVALID_PARAMS, `Unknown resource ${params.uri}; see resources/list.`)
  const principal = await requireMcpPrincipal(ctx)
  // A missing scope is an AppError: handleMessage answers it as a JSON-RPC error, like a missing key.
  if (resource.scope) authorize({ scope: resource.scope, permission: 'read' }, principal)
  // Counted once allowed, like a tool call (execute() does the same); a used-up quota is a JSON-RPC error here.
  await countApiCall(ctx.deps, principal)
  if (!resource.read) {
    throw new RpcError(RPC.RESOURCE_NOT_AVAILABLE, `${resource.uri} is part of the "${resource.capability}" capability, not available in this deployment yet.`, {
      error: 'not_implemented', message: `${resource.uri} is not available yet.`, capability: resource.capability,
    })
  }
  const data = await resource.read(ctx.deps, principal)
  return { contents: [{ uri: resource.uri, mimeType: 'application/json', text: JSON.stringify(data) }] }
}

function toolError(body: Record<string, unknown>) {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true }
}

async function callTool(ctx: McpCallContext, params: Record<string, unknown>) {
  if (typeof params.name !== 'string') throw new RpcError(RPC.INVALID_PARAMS, 'tools/call needs params.name')
  if (params.arguments !== undefined && (typeof params.arguments !== 'object' || params.arguments === null || Array.isArray(params.arguments))) {
    throw new RpcError(RPC.INVALID_PARAMS, 'params.arguments must be an object')
  }
  const op = findTool(ctx.registry, params.name)
  if (!op) throw new RpcError(RPC.INVALID_PARAMS, `Unknown tool: ${params.name}. See tools/list.`)
  // The idempotency key is a documented argument of every write tool, or _meta.idempotency_key.
  const { idempotency_key: argumentKey, ...args } = (params.arguments ?? {}) as Record<string, unknown>
  const metaKey = (params._meta as Record<string, unknown> | undefined)?.idempotency_key
  try {
    const result = await execute(op, {
      deps: ctx.deps,
      transport: 'mcp',
      requestId: ctx.requestId,
      clientIp: ctx.clientIp,
      authenticate: () => requireMcpPrincipal(ctx),
      idempotency: argumentKey !== undefined ? { key: argumentKey, field: 'idempotency_key' } : { key: metaKey, field: '_meta.idempotency_key' },
    }, args)
    const output = nextStepsInTransport(result.output, 'mcp', ctx.registry)
    const fullText = wantsFullText(ctx.protocolVersion, params._meta, ctx.view.fullText)
    return {
      content: [{ type: 'text', text: fullText ? JSON.stringify(output) : summarize(op.title, output) }],
      structuredContent: output,
      ...(result.replayed ? { _meta: { idempotent_replayed: true } } : {}),
    }
  } catch (thrown) {
    const error = errorInTransport(thrown, 'mcp', ctx.registry)
    // A missing key or plan flag fails the request; a used-up quota, like every other failure, is the tool's own result.
    if (isAccessError(error) && (error as AppError).code !== 'rate_limited') throw rpcErrorFromApp(error as AppError)
    if (error instanceof AppError) return toolError(error.body())
    const outage = fromDatabaseOutage(error)
    if (outage) return toolError(outage.body())
    ctx.deps.logger.error({ err: error, requestId: ctx.requestId, tool: op.name }, 'tool failed')
    return toolError({ error: 'internal_error', message: 'The tool failed unexpectedly. Retry, or contact support with the X-Request-Id header value.' })
  }
}
