// OpenAPI 3.1 generated from the registry: every REST-bound operation with its request and
// response schemas, security and errors.
import type { TSchema } from 'typebox'
import type { Registry } from '../core/registry.js'
import { openApiPath, type AnyOperation } from '../core/operation.js'
import { ErrorBody } from '../core/schema-helpers.js'
import { descriptionsInTransport, inTransport } from '../core/next-step.js'

/** TypeBox schemas are JSON Schema; this drops TypeBox's non-JSON markers. */
export const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema))

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

function parametersFor(op: AnyOperation, input: Record<string, unknown>) {
  const schema = input as { properties?: Record<string, Record<string, unknown>>; required?: string[] }
  const pathParams = [...op.rest!.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!)
  const inQuery = op.rest!.method === 'GET' || op.rest!.method === 'DELETE'
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => inQuery || pathParams.includes(name))
    .map(([name, prop]) => ({
      name,
      in: pathParams.includes(name) ? 'path' : 'query',
      required: pathParams.includes(name) || (schema.required ?? []).includes(name),
      description: prop.description as string | undefined,
      schema: prop,
    }))
}

/** The operation's description and schemas as a REST caller reads them: tools with a route named by it. */
export function forRest(op: AnyOperation, registry: Registry) {
  return {
    description: inTransport(op.description, 'rest', registry),
    input: descriptionsInTransport(plain(op.input), 'rest', registry),
    output: descriptionsInTransport(plain(op.output), 'rest', registry),
  }
}

function operationObject(op: AnyOperation, registry: Registry) {
  const binding = op.rest!
  const rest = forRest(op, registry)
  const status = String(binding.status ?? 200)
  const hasBody = !(binding.method === 'GET' || binding.method === 'DELETE')
  const responses: Record<string, unknown> = {
    [status]: { description: op.title, content: { 'application/json': { schema: rest.output } } },
    '400': errorResponse('validation_error (with messages) or invalid_plan (with available_plans)'),
    '429': errorResponse('rate_limited, with retry_after_seconds'),
    '500': errorResponse('internal_error'),
    '503': errorResponse('database_unavailable: the database connection dropped; retry after Retry-After (read a write back first)'),
  }
  if (op.access !== 'public') {
    responses['401'] = errorResponse('unauthorized: missing or invalid API key')
    responses['403'] = errorResponse('forbidden: the key lacks a scope or permission, or the plan lacks a feature')
  }
  if (op.name === 'onboard') responses['409'] = errorResponse('email_taken')
  if (binding.path.includes(':')) responses['404'] = errorResponse('not_found')
  const access = op.access === 'public' ? null : op.access
  return {
    operationId: op.name,
    summary: op.title,
    description: rest.description,
    tags: [op.domain],
    security: access ? [{ bearerAuth: [] }] : [],
    parameters: parametersFor(op, rest.input),
    ...(hasBody
      ? { requestBody: { required: true, content: { 'application/json': { schema: rest.input } } } }
      : {}),
    responses,
    'x-required-scope': access?.scope ?? null,
    'x-required-permission': access?.permission ?? null,
    'x-required-feature': binding.feature ?? access?.feature ?? null,
    'x-credit-cost': op.cost,
    ...(op.mcp === false ? {} : { 'x-mcp-tool': op.name }),
  }
}

/** An outbound event for OpenAPI 3.1's top-level `webhooks`: what it is, who emits it, the body it POSTs. */
export interface OutboundEvent {
  name: string
  summary: string
  emittedBy: string[]
  body: TSchema
}

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' }, description: 'The event id (evt_...), the same on every retry' },
  { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string' }, description: 'Unix seconds when this attempt was signed' },
  { name: 'webhook-signature', in: 'header', required: true, schema: { type: 'string' }, description: 'Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body"> per secret, space separated' },
  { name: 'X-Webhook-Signature', in: 'header', required: true, schema: { type: 'string' }, description: 't=<unix>,v1=<hex HMAC-SHA256 of "t.body">, one v1 per secret; the key is the base64-decoded part of whsec_...' },
]

function webhooksSection(events: OutboundEvent[]) {
  return Object.fromEntries(events.map((e) => [e.name, {
    post: {
      summary: e.summary,
      description: `Emitted by: ${e.emittedBy.join('; ')}.`,
      parameters: SIGNATURE_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: plain(e.body) } } },
      responses: {
        '2XX': { description: 'Received; nothing is sent again' },
        '410': { description: 'Gone: the subscription is disabled' },
        default: { description: 'Anything else (3xx included: redirects are not followed) is retried on the schedule' },
      },
    },
  }]))
}

export function buildOpenApi(registry: Registry, apiBase: string, events: OutboundEvent[] = []) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of registry.restOperations()) {
    const path = openApiPath(op.rest!.path)
    paths[path] ??= {}
    paths[path][op.rest!.method.toLowerCase()] = operationObject(op, registry)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Trade Business Management API',
      version: '1.0.0',
      description:
        'Leads, quotes, jobs, clients, invoicing and billing for Australian trade businesses (AUD, GST), built for AI agents. ' +
        'Authenticate with "Authorization: Bearer <API_KEY>" (keys start with ask_; get one from POST /onboard). ' +
        'Errors are {error, message}.',
    },
    servers: [{ url: apiBase }],
    tags: [...new Set(registry.restOperations().map((op) => op.domain))].map((name) => ({ name })),
    paths,
    ...(events.length ? { webhooks: webhooksSection(events) } : {}),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key starting with ask_' },
      },
      schemas: { Error: plain(ErrorBody) },
    },
  }
}
