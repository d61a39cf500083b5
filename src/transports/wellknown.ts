// Discovery documents under {site_root}/.well-known/, generated from the registry.
import type { Registry } from '../core/registry.js'
import type { Urls } from '../core/deps.js'
import { DEFAULT_PROTOCOL_VERSION, SERVER_INFO, UNAUTHENTICATED_METHODS } from './mcp/protocol.js'

export function buildAgentCard(registry: Registry, urls: Urls) {
  const domains = [...new Set(registry.mcpTools().map((op) => op.domain))]
  return {
    name: 'Trade Business Management Service',
    description: 'Leads, quotes, jobs, clients, invoicing, payments and automations for Australian trade businesses, operated by AI agents.',
    url: urls.apiBase,
    version: '1.0.0',
    provider: { organization: 'tradie-ops', url: urls.siteRoot },
    documentationUrl: `${urls.apiBase}/docs`,
    capabilities: { streaming: true, pushNotifications: true },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (ask_...) from POST /api/v1/onboard' } },
    security: [{ bearer: [] }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    interfaces: {
      rest: { url: urls.apiBase, openapi: `${urls.apiBase}/openapi.json` },
      mcp: { url: `${urls.apiBase}/mcp`, sse: `${urls.apiBase}/mcp/sse`, transport: 'streamable-http' },
      onboarding: { method: 'POST', url: `${urls.apiBase}/onboard`, auth: 'none' },
    },
    skills: domains.map((domain) => ({
      id: domain,
      name: domain,
      description: registry.mcpTools().filter((op) => op.domain === domain).map((op) => op.title).join('; '),
      tags: [domain],
      tools: registry.mcpTools().filter((op) => op.domain === domain).map((op) => op.name),
    })),
  }
}

export function buildMcpServerCard(registry: Registry, urls: Urls) {
  return {
    name: SERVER_INFO.name,
    title: SERVER_INFO.title,
    version: SERVER_INFO.version,
    protocolVersion: DEFAULT_PROTOCOL_VERSION,
    description: 'MCP server for running an Australian trade business: leads, quotes, jobs, invoicing, billing.',
    transports: [
      { type: 'streamable-http', url: `${urls.apiBase}/mcp` },
      { type: 'sse', url: `${urls.apiBase}/mcp/sse` },
    ],
    authentication: { type: 'bearer', header: 'Authorization', description: 'API key (ask_...); needs the mcpAccess feature (business plan)', unauthenticatedMethods: UNAUTHENTICATED_METHODS },
    tools: registry.mcpTools().map((op) => ({ name: op.name, title: op.title, description: op.description, annotations: op.annotations })),
  }
}
