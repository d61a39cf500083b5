// The body of GET /api/v1/mcp: what an agent needs before its first call, without a key. Besides
// the server, transports and catalogue it says how to keep that catalogue small (the filters) and
// how large a request or batch may be (the limits).
import type { Registry } from '../../core/registry.js'
import type { Urls } from '../../core/deps.js'
import { describeTool, filteredTools, type CatalogueView } from './catalogue.js'
import { LIMITS, PROTOCOL_VERSIONS, SERVER_INFO, UNAUTHENTICATED_METHODS } from './protocol.js'
import { describeResource } from './resources.js'

/** Each filter works as a query parameter on /mcp (and /mcp/sse) or as a request header; tools/list honours it too. */
export function describeFilters(registry: Registry) {
  const tools = registry.mcpTools()
  const toolsets = registry.toolsets
    .map((t) => ({ name: t.name, description: t.description, tool_count: tools.filter((op) => op.domain === t.name).length }))
    .filter((t) => t.tool_count > 0)
  return {
    toolsets: {
      query: 'toolsets', header: 'Mcp-Toolsets', example: 'toolsets=leads,quotes',
      description: 'Comma-separated toolset names: only their tools are listed.',
      values: toolsets,
    },
    read_only: {
      query: 'read_only', header: 'Mcp-Read-Only', example: 'read_only=true',
      description: 'true: only read-only tools (annotations.readOnlyHint) are listed.',
      values: ['true'],
    },
    tool_names: {
      query: 'tool_names', header: 'Mcp-Tool-Names', example: 'tool_names=underscore',
      description: 'underscore: tools are listed as leads_create instead of leads.create, for clients that refuse dots; tools/call accepts both.',
      values: ['underscore'],
    },
  }
}

export function describeServer(registry: Registry, urls: Urls, view: CatalogueView) {
  const tools = filteredTools(registry, view)
  return {
    server: { ...SERVER_INFO, ...PROTOCOL_VERSIONS },
    transports: {
      streamable_http: `${urls.apiBase}/mcp`,
      sse: `${urls.apiBase}/mcp/sse`,
    },
    authentication: {
      scheme: 'bearer', header: 'Authorization: Bearer <API_KEY>', feature: 'mcpAccess (business plan)', unauthenticatedMethods: UNAUTHENTICATED_METHODS,
      sse: 'Opening GET /mcp/sse needs the key (not counted as an API call); every POST to its endpoint must carry that same key.',
    },
    limits: LIMITS,
    filters: describeFilters(registry),
    tool_count: tools.length,
    resource_count: registry.resources.length,
    tools: tools.map((op) => describeTool(op, view)),
    resources: registry.resources.map(describeResource),
  }
}
