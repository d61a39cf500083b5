// MCP over streamable HTTP (POST /api/v1/mcp, stateless: no session id), GET /api/v1/mcp (server
// information, tools and resources without a key), and the request plumbing SSE shares.
import Router from '@koa/router'
import type { Context } from 'koa'
import type { Deps } from '../../core/deps.js'
import type { Registry } from '../../core/registry.js'
import { authenticateHttp, type KeyRateLimiter } from '../../core/auth.js'
import type { CatalogueView } from './catalogue.js'
import type { McpCallContext } from './handler.js'
import { checkProtocolVersionHeader, mcpHeaders } from './headers.js'
import { MAX_REQUEST_BODY_BYTES, RPC, RpcError, SERVER_INFO, rpcErrorBody } from './protocol.js'
import { runBody, type ClaimedRoute } from './run-body.js'
import { describeServer } from './server-info.js'
import { checkOrigin } from './origin.js'

class BodyTooLarge extends Error {}

async function readRawBody(ctx: Context): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_REQUEST_BODY_BYTES) throw new BodyTooLarge()
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The raw body, or null after answering 413 (a JSON-RPC error) when it is over the limit. */
export async function readBodyOrRefuse(ctx: Context): Promise<string | null> {
  try {
    return await readRawBody(ctx)
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error
    ctx.status = 413
    ctx.body = rpcErrorBody(RPC.INVALID_REQUEST, `Request body too large: ${MAX_REQUEST_BODY_BYTES} bytes at most. Send fewer or smaller requests.`, { max_request_body_bytes: MAX_REQUEST_BODY_BYTES })
    return null
  }
}

const commaList = (value: string | undefined) => (value ? value.split(',').map((s) => s.trim()).filter(Boolean) : null)

/** Connection options from query parameters or headers: tool_names=underscore, toolsets=a,b, tools=a.b,c.d, read_only=true, output_schemas=true|false, full_text=true. */
export function viewFrom(ctx: Context): CatalogueView {
  const q = (k: string) => (typeof ctx.query[k] === 'string' ? (ctx.query[k] as string) : undefined)
  const names = q('tool_names') ?? ctx.get('mcp-tool-names')
  const toolsets = q('toolsets') ?? ctx.get('mcp-toolsets')
  const tools = q('tools') ?? ctx.get('mcp-tools')
  const readOnly = q('read_only') ?? ctx.get('mcp-read-only')
  const outputs = q('output_schemas') ?? ctx.get('mcp-output-schemas')
  const fullText = q('full_text') ?? ctx.get('mcp-full-text')
  return {
    underscoreNames: names === 'underscore',
    toolsets: commaList(toolsets),
    names: commaList(tools),
    readOnly: readOnly === 'true' || readOnly === '1',
    outputSchemas: outputs === 'true' || outputs === '1' ? true : outputs === 'false' || outputs === '0' ? false : null,
    fullText: fullText === 'true' || fullText === '1',
  }
}

export function callContext(ctx: Context, deps: Deps, registry: Registry, limiter: KeyRateLimiter, view: CatalogueView): McpCallContext {
  return {
    deps,
    registry,
    view,
    requestId: ctx.state.requestId,
    clientIp: ctx.ip,
    protocolVersion: ctx.get('mcp-protocol-version') || undefined,
    authenticate: () => authenticateHttp(ctx, deps, limiter, { count: true }),
  }
}

/** The Mcp-Method / Mcp-Name headers the client sent. */
export function claimedRoute(ctx: Context): ClaimedRoute {
  return { method: ctx.get('mcp-method') || undefined, name: ctx.get('mcp-name') || undefined }
}

export function mcpRouter(deps: Deps, registry: Registry, limiter: KeyRateLimiter): Router {
  const router = new Router({ prefix: '/api/v1' })

  router.post('/mcp', async (ctx) => {
    if (!checkOrigin(ctx, deps) || !checkProtocolVersionHeader(ctx)) return
    const raw = await readBodyOrRefuse(ctx)
    if (raw === null) return
    const call = callContext(ctx, deps, registry, limiter, viewFrom(ctx))
    const out = await runBody(call, raw, claimedRoute(ctx))
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
    ctx.set({ 'Mcp-Method': 'server/info', 'Mcp-Name': SERVER_INFO.name })
    try {
      ctx.body = describeServer(registry, deps.urls, viewFrom(ctx))
    } catch (error) {
      // An unknown name in ?tools=: the caller's mistake, said as the spec's error body.
      if (!(error instanceof RpcError)) throw error
      ctx.status = 400
      ctx.body = { error: 'validation_error', message: error.message }
    }
  })

  return router
}
