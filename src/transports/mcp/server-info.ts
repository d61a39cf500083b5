// The body of GET /api/v1/mcp: what an agent needs before its first call, without a key. Besides
// the server, transports and catalogue it says how to keep that catalogue small (the filters) and
// how large a request or batch may be (the limits).
import type { Registry } from '../../core/registry.js'
import type { Urls } from '../../core/deps.js'
import { CORE_TOOLSET, describeTool, filteredTools, listsOutputSchemas, type CatalogueView } from './catalogue.js'
import { LIMITS, PROTOCOL_VERSIONS, SERVER_INFO, UNAUTHENTICATED_METHODS } from './protocol.js'
import { describeResource } from './resources.js'

/** Each filter works as a query parameter on /mcp (and /mcp/sse), as a request header, or (but tool_names) as a tools/list param. */
export function describeFilters(registry: Registry) {
  const tools = registry.mcpTools()
  const toolsets = registry.toolsets
    .map((t) => ({ name: t.name, description: t.description, tool_count: tools.filter((op) => op.domain === t.name).length }))
    .filter((t) => t.tool_count > 0)
  const core = { name: CORE_TOOLSET.name, description: CORE_TOOLSET.description, tool_count: CORE_TOOLSET.tools.length, tools: CORE_TOOLSET.tools }
  return {
    toolsets: {
      query: 'toolsets', header: 'Mcp-Toolsets', params: 'toolsets', example: 'toolsets=core',
      description: 'Comma-separated toolset names (tools/list params: an array): only their tools are listed. core is one job end to end, from several toolsets.',
      values: [core, ...toolsets],
    },
    tools: {
      query: 'tools', header: 'Mcp-Tools', params: 'names', example: 'tools/list {"names": ["leads.create", "quotes.send"]}',
      description: 'Only these tools, in this order (tools/list params.names, or comma-separated on the URL or header). An unknown name is an invalid-params error naming it.',
    },
    output_schemas: {
      query: 'output_schemas', header: 'Mcp-Output-Schemas', params: 'output_schemas', example: 'output_schemas=true',
      description: 'Output schemas are listed when toolsets or names narrow the listing, and left out of the listing of every tool, which would be twice as large; true or false says so explicitly. Results conform either way.',
      values: ['true', 'false'],
    },
    full_text: {
      query: 'full_text', header: 'Mcp-Full-Text', example: 'full_text=true',
      description: 'true: tool results carry their whole JSON as text too, not a short summary (per call: tools/call _meta {"full_text": true}).',
      values: ['true'],
    },
    read_only: {
      query: 'read_only', header: 'Mcp-Read-Only', params: 'read_only', example: 'read_only=true',
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
    tools: tools.map((op) => describeTool(op, { underscoreNames: view.underscoreNames, outputSchemas: listsOutputSchemas(view) })),
    resources: registry.resources.map(describeResource),
  }
}
