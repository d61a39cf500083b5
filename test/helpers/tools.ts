// Calling tools through the official MCP SDK client and unwrapping results.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'

export async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const res = await client.callTool({ name, arguments: args })
  if (res.isError) throw Object.assign(new Error(`${name} failed: ${JSON.stringify(res.structuredContent)}`), { body: res.structuredContent })
  return res.structuredContent
}

/** The error body of a tool call that must fail. */
export async function toolError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const res = await client.callTool({ name, arguments: args })
  if (!res.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(res.structuredContent)}`)
  return res.structuredContent
}
