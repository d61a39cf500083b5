// Discovery documents under {site_root}/.well-known/, generated from the registry. Each follows a
// published format so that generic clients accept it (test/wellknown.test.ts validates both against
// the schemas vendored in test/fixtures/schemas/), and claims nothing the service does not do.
import type { Registry } from '../core/registry.js'
import type { Urls } from '../core/deps.js'
import { LATEST_PROTOCOL_VERSION, SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS, UNAUTHENTICATED_METHODS } from './mcp/protocol.js'

const SERVICE_NAME = 'Trade Business Management Service'
const SERVICE_DESCRIPTION = 'Leads, quotes, jobs, clients, invoicing, payments and automations for Australian trade businesses, operated by AI agents.'
const API_KEY_HELP = 'API key (ask_...) from POST /api/v1/onboard, sent as "Authorization: Bearer <key>". MCP needs the business plan (mcpAccess).'

/** The A2A revision whose Agent Card format this card follows. */
export const A2A_CARD_VERSION = '1.0'
/** HTTP with SSE is defined by this MCP revision (later revisions replaced it with streamable HTTP). */
export const LEGACY_SSE_REVISION = '2024-11-05'
/** The MCP registry's server.json format this document follows (its newest released version). */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'

const mcpTransport = (revision: string, anchor: string) => `https://modelcontextprotocol.io/specification/${revision}/basic/transports#${anchor}`

/**
 * The A2A (v1.0) Agent Card. This service is not an A2A server: it answers none of A2A's
 * JSON-RPC, gRPC or HTTP+JSON operations, so it declares none of those bindings. Its interfaces
 * are listed as custom bindings, each named by a URI (A2A 1.0 §5.8) that says what the URL really
 * speaks: MCP streamable HTTP, the REST API its OpenAPI document describes, MCP's legacy HTTP+SSE.
 * An A2A client that knows none of them selects no interface instead of sending A2A messages
 * that would fail. No streaming, push notifications or extended card are claimed.
 */
export function buildAgentCard(registry: Registry, urls: Urls) {
  const tools = registry.mcpTools()
  const domains = [...new Set(tools.map((op) => op.domain))]
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    supportedInterfaces: [
      { url: `${urls.apiBase}/mcp`, protocolBinding: mcpTransport(LATEST_PROTOCOL_VERSION, 'streamable-http'), protocolVersion: A2A_CARD_VERSION },
      { url: urls.apiBase, protocolBinding: `${urls.apiBase}/openapi.json`, protocolVersion: A2A_CARD_VERSION },
      { url: `${urls.apiBase}/mcp/sse`, protocolBinding: mcpTransport(LEGACY_SSE_REVISION, 'http-with-sse'), protocolVersion: A2A_CARD_VERSION },
    ],
    provider: { organization: 'tradie-ops', url: urls.siteRoot },
    version: '1.0.0',
    documentationUrl: `${urls.apiBase}/docs`,
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'ask_...', description: API_KEY_HELP } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: domains.map((domain) => {
      const ofDomain = tools.filter((op) => op.domain === domain)
      return {
        id: domain,
        name: domain,
        description: `${ofDomain.map((op) => op.title).join('; ')}. MCP tools: ${ofDomain.map((op) => op.name).join(', ')}.`,
        tags: [domain],
      }
    }),
  }
}

/** server.json names are "namespace/name" with the namespace in reverse-DNS form of a domain we control. */
export function registryNamespace(siteRoot: string): string {
  const host = new URL(siteRoot).hostname.toLowerCase()
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host // an IP address has no reverse-DNS form
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host)) return 'localhost' // IPv6 literal
  return host.split('.').reverse().join('.')
}

/**
 * A server.json as the MCP registry defines it: the remote endpoints, and the key they need as a
 * header input. What a registry would not keep (protocol revisions, where the tool catalogue is)
 * goes under the publisher-provided _meta key, the one place the registry preserves (4 KB at most).
 */
export function buildMcpServerCard(urls: Urls) {
  const authorization = {
    name: 'Authorization',
    description: API_KEY_HELP,
    isRequired: true,
    isSecret: true,
    value: 'Bearer {api_key}',
    variables: { api_key: { description: 'API key starting with ask_', isRequired: true, isSecret: true } },
  }
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: `${registryNamespace(urls.siteRoot)}/${SERVER_INFO.name}`,
    title: SERVER_INFO.title,
    description: 'Run an Australian trade business: leads, quotes, jobs, invoicing and billing.',
    version: SERVER_INFO.version,
    websiteUrl: `${urls.apiBase}/docs`,
    remotes: [
      { type: 'streamable-http', url: `${urls.apiBase}/mcp`, headers: [authorization] },
      { type: 'sse', url: `${urls.apiBase}/mcp/sse`, headers: [authorization] },
    ],
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
        latestProtocolVersion: LATEST_PROTOCOL_VERSION,
        unauthenticatedMethods: UNAUTHENTICATED_METHODS,
        catalogue: `${urls.apiBase}/mcp`,
        catalogueFilters: 'toolsets=<names>, read_only=true, tool_names=underscore (query or Mcp-Toolsets, Mcp-Read-Only, Mcp-Tool-Names headers); see the catalogue URL.',
      },
    },
  }
}
