// MCP over streamable HTTP (POST /api/v1/mcp, stateless: no session id), GET /api/v1/mcp (server
// information, tools and resources without a key), and the request plumbing SSE shares.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import type { Registry } from '../../core/registry.js'
import { authenticateHttp, type KeyRateLimiter } from '../../core/auth.js'
import { describeTool, filteredTools, type CatalogueView } from './catalogue.js'
import { handleMessage, requestName, type Handled, type McpCallContext } from './handler.js'
import { DEFAULT_PROTOCOL_VERSION, RPC, SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS, UNAUTHENTICATED_METHODS, type JsonRpcRequest } from './protocol.js'
import { describeResource } from './resources.js'
import { checkOrigin } from './origin.js'

const MAX_BODY = 1024 * 1024

export async function readRawBody(ctx: Context): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY) throw Object.assign(new Error('body too large'), { tooLarge: true })
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Catalogue view from query parameters or headers: tool_names=underscore, toolsets=a,b, read_only=true. */
export function viewFrom(ctx: Context): CatalogueView {
  const q = (k: string) => (typeof ctx.query[k] === 'string' ? (ctx.query[k] as string) : undefined)
  const names = q('tool_names') ?? ctx.get('mcp-tool-names')
  const toolsets = q('toolsets') ?? ctx.get('mcp-toolsets')
  const readOnly = q('read_only') ?? ctx.get('mcp-read-only')
  return {
    underscoreNames: names === 'underscore',
    toolsets: toolsets ? toolsets.split(',').map((s) => s.trim()).filter(Boolean) : null,
    readOnly: readOnly === 'true' || readOnly === '1',
  }
}

export function callContext(ctx: Context, deps: Deps, registry: Registry, limiter: KeyRateLimiter, view: CatalogueView): McpCallContext {
  return {
    deps,
    registry,
    view,
    requestId: ctx.state.requestId,
    clientIp: ctx.ip,
    authenticate: () => authenticateHttp(ctx, deps, limiter, { count: true }),
  }
}

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0' as const, id: null, error: { code, message } })

/** Parses and runs one HTTP body (a request or a batch). Returns status and body to send. */
export async function runBody(call: McpCallContext, raw: string, headers: { method?: string; name?: string }): Promise<{ status: number; body: unknown; handled: Handled[]; extraHeaders: Record<string, string> }> {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return { status: 400, body: rpcError(RPC.PARSE_ERROR, 'Parse error: the body is not valid JSON.'), handled: [], extraHeaders: {} }
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return { status: 400, body: rpcError(RPC.INVALID_REQUEST, 'Invalid request: empty batch.'), handled: [], extraHeaders: {} }
    const handled: Handled[] = []
    for (const msg of parsed) handled.push(await handleMessage(call, msg)) // in order: later calls may depend on earlier ones
    const responses = handled.map((h) => h.response).filter((r) => r !== null)
    return { status: responses.length ? 200 : 204, body: responses.length ? responses : undefined, handled, extraHeaders: {} }
  }
  const msg = parsed as JsonRpcRequest
  if (headers.method || headers.name) {
    const bodyMethod = typeof msg?.method === 'string' ? msg.method : ''
    const bodyName = typeof msg?.method === 'string' ? requestName(msg) : ''
    if ((headers.method && headers.method !== bodyMethod) || (headers.name && headers.name !== bodyName)) {
      return {
        status: 400,
        body: { jsonrpc: '2.0', id: (msg as { id?: unknown })?.id ?? null, error: { code: RPC.HEADER_MISMATCH, message: `Mcp-Method/Mcp-Name headers (${headers.method ?? '-'} / ${headers.name ?? '-'}) disagree with the body (${bodyMethod} / ${bodyName}).` } },
        handled: [],
        extraHeaders: { 'Mcp-Method': bodyMethod, 'Mcp-Name': bodyName },
      }
    }
  }
  const one = await handleMessage(call, msg)
  return { status: one.response ? one.httpStatus : 204, body: one.response ?? undefined, handled: [one], extraHeaders: one.headers }
}

export function mcpHeaders(handled: Handled[]): Record<string, string> {
  return {
    'Mcp-Method': handled.map((h) => h.method).join(','),
    'Mcp-Name': handled.map((h) => h.name).join(','),
  }
}

export function mcpRouter(deps: Deps, registry: Registry, limiter: KeyRateLimiter): Router {
  const router = new Router({ prefix: '/api/v1' })

  router.post('/mcp', async (ctx) => {
    if (!checkOrigin(ctx, deps)) return
    let raw: string
    try {
      raw = await readRawBody(ctx)
    } catch {
      ctx.status = 413
      ctx.body = rpcError(RPC.INVALID_REQUEST, 'Request body too large (1 MB at most).')
      return
    }
    const call = callContext(ctx, deps, registry, limiter, viewFrom(ctx))
    const out = await runBody(call, raw, { method: ctx.get('mcp-method') || undefined, name: ctx.get('mcp-name') || undefined })
    ctx.set({ ...mcpHeaders(out.handled), ...out.extraHeaders })
    ctx.status = out.status
    if (out.body !== undefined) ctx.body = out.body
  })

  router.get('/mcp', (ctx) => {
    // Stateless server: there is no standalone server-to-client stream on this URL.
    if (ctx.accepts('application/json', 'text/event-stream') === 'text/event-stream' && !ctx.get('accept').includes('application/json')) {
      ctx.status = 405
      ctx.set('Allow', 'GET, POST')
      ctx.body = { error: 'method_not_allowed', message: 'No SSE stream here: POST JSON-RPC to this URL, or use GET /api/v1/mcp/sse for the legacy SSE transport.' }
      return
    }
    const view = viewFrom(ctx)
    const tools = filteredTools(registry, view)
    ctx.set({ 'Mcp-Method': 'server/info', 'Mcp-Name': SERVER_INFO.name })
    ctx.body = {
      server: { ...SERVER_INFO, protocolVersion: DEFAULT_PROTOCOL_VERSION, supportedVersions: SUPPORTED_PROTOCOL_VERSIONS },
      transports: {
        streamable_http: `${deps.urls.apiBase}/mcp`,
        sse: `${deps.urls.apiBase}/mcp/sse`,
      },
      authentication: { scheme: 'bearer', header: 'Authorization: Bearer <API_KEY>', feature: 'mcpAccess (business plan)', unauthenticatedMethods: UNAUTHENTICATED_METHODS },
      tool_count: tools.length,
      resource_count: registry.resources.length,
      tools: tools.map((op) => describeTool(op, view)),
      resources: registry.resources.map(describeResource),
    }
  })

  return router
}
