// Official MCP TypeScript SDK clients (streamable HTTP and legacy SSE) against a test app.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import type { TestApp } from './app.js'

export async function connectHttp(app: TestApp, key?: string, query = ''): Promise<Client> {
  const client = new Client({ name: 'tradie-ops-tests', version: '1.0.0' })
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {}
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/v1/mcp${query}`), { requestInit: { headers } }))
  return client
}

export async function connectSse(app: TestApp, key?: string): Promise<Client> {
  const client = new Client({ name: 'tradie-ops-tests-sse', version: '1.0.0' })
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {}
  const transport = new SSEClientTransport(new URL(`${app.url}/api/v1/mcp/sse`), {
    requestInit: { headers },
    eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
  })
  await client.connect(transport)
  return client
}

/** Raw JSON-RPC over HTTP, for what the SDK hides (batches, notifications, headers, error codes). */
export async function rpc(app: Pick<TestApp, 'url'>, body: unknown, options: { key?: string; headers?: Record<string, string>; raw?: string; path?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers }
  if (options.key) headers.authorization = `Bearer ${options.key}`
  const res = await fetch(`${app.url}${options.path ?? '/api/v1/mcp'}`, { method: 'POST', headers, body: options.raw ?? JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null }
}
