// Calling tools through the official MCP SDK client and unwrapping results. Every successful
// result is also checked against the tool's declared output schema, so the catalogue never lies.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { createRegistry } from '../../src/domains/index.js'
import { findTool } from '../../src/transports/mcp/catalogue.js'
import { describeErrors, validatorFor } from '../../src/core/validation.js'

const registry = createRegistry()

export async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const res = await client.callTool({ name, arguments: args })
  if (res.isError) throw Object.assign(new Error(`${name} failed: ${JSON.stringify(res.structuredContent)}`), { body: res.structuredContent })
  const op = findTool(registry, name)!
  if (!validatorFor(op.output).Check(res.structuredContent)) {
    throw new Error(`${name} returned what its output schema does not allow: ${describeErrors(op.output, res.structuredContent).join('; ')}`)
  }
  return res.structuredContent
}

/** The error body of a tool call that must fail. */
export async function toolError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const res = await client.callTool({ name, arguments: args })
  if (!res.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(res.structuredContent)}`)
  return res.structuredContent
}
