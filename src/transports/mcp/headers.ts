// MCP's HTTP headers. Mcp-Method and Mcp-Name echo what the client asked for, so they are built
// only from a single well-formed request and only from plain values: Node refuses a header holding
// CR, LF, NUL or non-Latin-1 text, and that refusal would come after the request's work was done.
// MCP-Protocol-Version, when a client sends it, must name a revision we speak (MCP transports spec).
import type { Context } from 'koa'
import type { Handled, Route } from './handler.js'
import { MAX_ROUTE_HEADER_LENGTH, RPC, SUPPORTED_PROTOCOL_VERSIONS, isSupportedVersion, rpcErrorBody } from './protocol.js'

// Visible ASCII only: no spaces, controls or anything Node could refuse.
const PLAIN_HEADER_VALUE = new RegExp(`^[\\x21-\\x7e]{1,${MAX_ROUTE_HEADER_LENGTH}}$`)

export const isPlainHeaderValue = (value: string) => PLAIN_HEADER_VALUE.test(value)

/** Mcp-Method / Mcp-Name for one request; each left out when its value is not plain. */
export function routeHeaders(route: Route | null): Record<string, string> {
  if (!route) return {}
  return {
    ...(isPlainHeaderValue(route.method) ? { 'Mcp-Method': route.method } : {}),
    ...(isPlainHeaderValue(route.name) ? { 'Mcp-Name': route.name } : {}),
  }
}

/** The route headers of a body holding exactly one request; none for a batch. */
export function mcpHeaders(handled: Handled[]): Record<string, string> {
  return handled.length === 1 ? routeHeaders(handled[0]!.route) : {}
}

/** Answers 400 with a JSON-RPC error and returns false when MCP-Protocol-Version names a revision we do not speak. */
export function checkProtocolVersionHeader(ctx: Context): boolean {
  const sent = ctx.get('mcp-protocol-version')
  // Absent: the transport spec says to assume 2025-03-26, which we speak.
  if (!sent || isSupportedVersion(sent)) return true
  const message = `Unsupported MCP-Protocol-Version "${sent.slice(0, 40)}". This server speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}: send one of them (the one initialize returned), or leave the header out.`
  ctx.status = 400
  ctx.body = rpcErrorBody(RPC.INVALID_REQUEST, message, { error: 'validation_error', message, supported_versions: SUPPORTED_PROTOCOL_VERSIONS })
  return false
}
