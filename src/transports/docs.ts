// GET /api/v1/docs: the same registry as JSON documentation an agent can read in one request.
import type { Registry } from '../core/registry.js'
import { forRest } from './openapi.js'
import { API_PREFIX } from './rest.js'
import type { Urls } from '../core/deps.js'
import { describeFilters } from './mcp/server-info.js'
import { LATEST_PROTOCOL_VERSION, LIMITS as MCP_LIMITS, SUPPORTED_PROTOCOL_VERSIONS } from './mcp/protocol.js'
import { INPUT_LIMITS } from '../core/input-guard.js'
import { COUNT_CAP, MAX_OFFSET } from '../core/paging.js'

export function buildDocs(registry: Registry, urls: Urls) {
  return {
    name: 'Trade Business Management Service',
    version: '1.0.0',
    base_url: urls.apiBase,
    description: 'Business management for Australian trade businesses (plumbers, electricians, builders), operated by AI agents. Currency AUD; GST 10%.',
    getting_started: [
      `POST ${urls.apiBase}/onboard with {"business_name", "email", "plan"} to get an API key (shown once).`,
      'Send "Authorization: Bearer <API_KEY>" on every other call.',
      `GET ${urls.apiBase}/usage shows this month's quota; GET ${urls.apiBase}/billing the plan and trial.`,
      `MCP agents: list only the tools you need, e.g. ${urls.apiBase}/mcp?toolsets=core, or tools/list {"names": ["leads.create", "quotes.send"]} (see "mcp.filters").`,
    ],
    // The same filter descriptions GET /api/v1/mcp publishes, so both documents always agree.
    mcp: {
      streamable_http: `${urls.apiBase}/mcp`,
      sse: `${urls.apiBase}/mcp/sse`,
      protocol_versions: SUPPORTED_PROTOCOL_VERSIONS,
      latest_protocol_version: LATEST_PROTOCOL_VERSION,
      catalogue: `GET ${urls.apiBase}/mcp (no key) lists every tool and resource; tools/list pages the same list.`,
      keep_context_small: 'Each filter narrows the tool list: pass it as a query parameter on the /mcp or /mcp/sse URL your client connects to (tools/list then honours it), as the request header, or as a tools/list param. Filters combine. A listing of named tools carries their output schemas; other listings leave them out unless output_schemas=true.',
      tool_results: 'A successful result\'s text is a short summary (what was done, ids, key figures); every field is in structuredContent. The whole JSON comes as text with tools/call _meta {"full_text": true}, on a connection opened with ?full_text=true (or the Mcp-Full-Text: true header), or for clients older than MCP 2025-06-18. Errors are the {error, message} body, as text and structuredContent.',
      filters: describeFilters(registry),
    },
    authentication: {
      scheme: 'Bearer',
      header: 'Authorization: Bearer <API_KEY>',
      key_prefix: 'ask_',
      storage: 'Keys are stored as SHA-256 hashes only and shown once.',
      scopes: ['leads', 'quotes', 'jobs', 'clients', 'financials'],
      permissions: ['read', 'write', 'admin'],
      feature_flags: { mcpAccess: 'business plan', webhookInbound: 'business plan', restWrite: 'professional plan and above' },
    },
    errors: [
      { error: 'validation_error', status: 400, extra: 'messages' },
      { error: 'invalid_plan', status: 400, extra: 'available_plans' },
      { error: 'unauthorized', status: 401 },
      { error: 'payment_required', status: 402 },
      { error: 'forbidden', status: 403, extra: 'missing' },
      { error: 'not_found', status: 404 },
      { error: 'method_not_allowed', status: 405 },
      { error: 'email_taken', status: 409 },
      { error: 'conflict', status: 409 },
      { error: 'idempotency_conflict', status: 409 },
      { error: 'payment_account_required', status: 409, extra: 'next_step' },
      { error: 'insufficient_credit', status: 402, extra: 'next_step' },
      { error: 'payload_too_large', status: 413 },
      { error: 'rate_limited', status: 429, extra: 'retry_after_seconds' },
      { error: 'internal_error', status: 500 },
      { error: 'not_implemented', status: 501 },
      { error: 'worker_unavailable', status: 503 },
      { error: 'database_unavailable', status: 503, extra: 'retry_after_seconds' },
    ],
    limits: {
      request_body_bytes: INPUT_LIMITS.maxBodyBytes,
      input_nesting_depth: INPUT_LIMITS.maxDepth,
      input_values: INPUT_LIMITS.maxValues,
      text: 'no NUL characters and no unpaired UTF-16 surrogates in any string',
      list_limit: { default: 50, maximum: 100 },
      list_offset_maximum: MAX_OFFSET,
      list_total: `exact up to ${COUNT_CAP}; beyond, ${COUNT_CAP} with totalCapped: true`,
      paging_beyond_offset: 'pass nextCursor from the previous page as cursor',
      mcp: MCP_LIMITS,
    },
    rate_limits: {
      monthly_api_calls: 'per plan (free 100, starter 1000, professional 5000, business 25000); resets each calendar month, Sydney time',
      per_key: 'RateLimit-Limit / RateLimit-Remaining / RateLimit-Reset headers on every authenticated response',
    },
    openapi: `${urls.apiBase}/openapi.json`,
    endpoints: registry.restOperations().map((op) => {
      // Described as a REST caller reads it: a tool with a route is named by its route.
      const rest = forRest(op, registry)
      return {
        method: op.rest!.method,
        path: `${API_PREFIX}${op.rest!.path}`,
        operation: op.name,
        summary: op.title,
        description: rest.description,
        auth: op.access === 'public' ? 'none' : 'bearer',
        scope: op.access === 'public' ? null : op.access.scope ?? null,
        permission: op.access === 'public' ? null : op.access.permission,
        feature: op.rest!.feature ?? (op.access === 'public' ? null : op.access.feature ?? null),
        success_status: op.rest!.status ?? 200,
        input: rest.input,
        output: rest.output,
      }
    }),
  }
}
