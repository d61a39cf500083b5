// One POSTed body, a request or a batch, in and the HTTP answer out. Shared by the streamable-HTTP
// endpoint and the legacy SSE transport. A batch is bounded twice: its item count is checked before
// anything runs, and once its responses pass the size limit the rest is answered, not run.
import { handleMessage, messageId, refusedReply, requestName, type Handled, type McpCallContext } from './handler.js'
import { routeHeaders } from './headers.js'
import { MAX_BATCH_ITEMS, MAX_BATCH_RESPONSE_BYTES, RPC, RpcError, rpcErrorBody, type JsonRpcRequest } from './protocol.js'

export interface BodyOutcome {
  status: number
  body: unknown
  handled: Handled[]
  extraHeaders: Record<string, string>
}

/** The Mcp-Method / Mcp-Name headers the client sent, if any. */
export interface ClaimedRoute {
  method?: string
  name?: string
}

const refused = (status: number, body: unknown): BodyOutcome => ({ status, body, handled: [], extraHeaders: {} })

export async function runBody(call: McpCallContext, raw: string, claimed: ClaimedRoute): Promise<BodyOutcome> {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return refused(400, rpcErrorBody(RPC.PARSE_ERROR, 'Parse error: the body is not valid JSON.'))
  }
  if (Array.isArray(parsed)) return runBatch(call, parsed)
  const msg = parsed as JsonRpcRequest
  const mismatch = headerMismatch(msg, claimed)
  if (mismatch) return mismatch
  const one = await handleMessage(call, msg)
  return { status: one.response ? one.httpStatus : 204, body: one.response ?? undefined, handled: [one], extraHeaders: one.headers }
}

async function runBatch(call: McpCallContext, items: unknown[]): Promise<BodyOutcome> {
  if (items.length === 0) return refused(400, rpcErrorBody(RPC.INVALID_REQUEST, 'Invalid request: empty batch.'))
  if (items.length > MAX_BATCH_ITEMS) {
    return refused(400, rpcErrorBody(
      RPC.INVALID_REQUEST,
      `Batch of ${items.length} items refused, none was run: at most ${MAX_BATCH_ITEMS} per request. Split it into several requests.`,
      { max_batch_items: MAX_BATCH_ITEMS, received: items.length },
    ))
  }
  const handled: Handled[] = []
  let responseBytes = 0
  for (const [index, msg] of items.entries()) {
    // In order: a later call may depend on an earlier one. Past the limit nothing more runs, so no
    // item's work is ever done without its response reaching the caller.
    const one = responseBytes > MAX_BATCH_RESPONSE_BYTES ? refusedReply(msg, notRun(index)) : await handleMessage(call, msg)
    if (one.response) responseBytes += Buffer.byteLength(JSON.stringify(one.response))
    handled.push(one)
  }
  const responses = handled.map((h) => h.response).filter((r) => r !== null)
  return { status: responses.length ? 200 : 204, body: responses.length ? responses : undefined, handled, extraHeaders: {} }
}

function notRun(index: number): RpcError {
  return new RpcError(
    RPC.BATCH_RESPONSE_LIMIT,
    `Not run: the responses before this item already exceed ${MAX_BATCH_RESPONSE_BYTES} bytes, the most one batch answers. Send this item (and the ones after it) again in a new request.`,
    { not_run: true, batch_index: index, max_batch_response_bytes: MAX_BATCH_RESPONSE_BYTES },
  )
}

/** 400 with -32020 when the client's Mcp-Method or Mcp-Name header disagrees with the body. */
function headerMismatch(msg: JsonRpcRequest, claimed: ClaimedRoute): BodyOutcome | null {
  if (!claimed.method && !claimed.name) return null
  const hasMethod = typeof msg?.method === 'string'
  const route = { method: hasMethod ? msg.method : '', name: hasMethod ? requestName(msg) : '' }
  if ((!claimed.method || claimed.method === route.method) && (!claimed.name || claimed.name === route.name)) return null
  return {
    status: 400,
    body: {
      jsonrpc: '2.0',
      id: messageId(msg),
      error: { code: RPC.HEADER_MISMATCH, message: `Mcp-Method/Mcp-Name headers (${claimed.method ?? '-'} / ${claimed.name ?? '-'}) disagree with the body (${route.method} / ${route.name}).` },
    },
    handled: [],
    extraHeaders: hasMethod ? routeHeaders(route) : {},
  }
}
