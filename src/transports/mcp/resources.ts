// MCP resources (service://...) come from the domains (defineDomain's resources); this file only
// says how one is described in resources/list and GET /mcp.
import type { McpResource } from '../../core/domain.js'

export type { McpResource }

export function describeResource(r: McpResource) {
  return { uri: r.uri, name: r.name, description: r.description, mimeType: 'application/json' }
}
