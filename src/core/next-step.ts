// Error messages name the next step the way one transport calls it: a REST route ("The owner
// connects one with POST /api/v1/payments/account") or a tool ("call workflows.pending_actions").
// The caller reads it in its own transport: over MCP a route that is also a tool becomes that tool,
// over REST a tool that has a route becomes the route. Messages are written once, either way.
// Descriptions (of operations and schema fields) are written with tool names, as tools/list shows
// them (test/descriptions.test.ts keeps routes out of them); OpenAPI and /docs rewrite them for REST.
import { AppError } from './errors.js'
import { openApiPath, type AnyOperation } from './operation.js'
import type { Registry } from './registry.js'

type Transport = 'rest' | 'mcp'

const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE) (?:\/api\/v1)?(\/[\w\-./:{}]*[\w}])/g
const TOOL = /\b([a-z]+\.[a-z_]+)\b/g

const routePatterns = new WeakMap<Registry, { method: string; pattern: RegExp; op: AnyOperation }[]>()

function routesOf(registry: Registry) {
  let routes = routePatterns.get(registry)
  if (!routes) {
    routes = registry.restOperations().map((op) => ({
      method: op.rest!.method,
      // Params may be written :id, {id} or as a real value.
      pattern: new RegExp(`^${op.rest!.path.replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`),
      op,
    }))
    routePatterns.set(registry, routes)
  }
  return routes
}

/** The tool serving a route, when there is one. */
export function toolForRoute(registry: Registry, method: string, path: string): AnyOperation | undefined {
  const found = routesOf(registry).find((r) => r.method === method && r.pattern.test(path))?.op
  return found && found.mcp !== false ? found : undefined
}

/** The route serving a tool, as a REST caller writes it. */
export function routeForTool(op: AnyOperation): string | undefined {
  return op.rest ? `${op.rest.method} /api/v1${openApiPath(op.rest.path)}` : undefined
}

export function inTransport(text: string, transport: Transport, registry: Registry): string {
  if (transport === 'mcp') {
    return text.replace(ROUTE, (whole, method: string, path: string) => {
      const op = toolForRoute(registry, method, path)
      return op ? `the ${op.name} tool` : whole
    })
  }
  return text.replace(TOOL, (whole, name: string) => {
    const op = registry.get(name)
    return (op && routeForTool(op)) ?? whole
  })
}

/** Rewrites an error's message and next_step for the caller's transport, in place; returns it. */
export function errorInTransport<E>(error: E, transport: Transport, registry: Registry): E {
  if (!(error instanceof AppError)) return error
  error.message = inTransport(error.message, transport, registry)
  if (typeof error.extra.next_step === 'string') error.extra.next_step = nextStepIn(error.extra.next_step, transport, registry)
  return error
}

/** A next_step field holding just a route or just a tool name becomes the other one whole ("payments.connect_account"). */
function nextStepIn(step: string, transport: Transport, registry: Registry): string {
  const route = new RegExp(`^${ROUTE.source}$`).exec(step)
  if (transport === 'mcp' && route) return toolForRoute(registry, route[1]!, route[2]!)?.name ?? step
  return inTransport(step, transport, registry)
}

/**
 * A result's next_steps (core/next-steps.ts) as the caller's transport names them: each `why` is
 * rewritten like an error message, and over REST a step whose tool has a route gains `route`.
 */
export function nextStepsInTransport(output: unknown, transport: Transport, registry: Registry): unknown {
  const stepsOf = (output as { next_steps?: unknown } | null)?.next_steps
  if (!Array.isArray(stepsOf)) return output
  const next_steps = stepsOf.map((step: { tool: string; why: string }) => {
    const op = registry.get(step.tool)
    const route = transport === 'rest' && op ? routeForTool(op) : undefined
    return { tool: step.tool, ...(route && { route }), why: inTransport(step.why, transport, registry) }
  })
  return { ...(output as object), next_steps }
}

/**
 * A copy of a JSON value (an operation's schema) whose every `description` string is rewritten
 * for the transport, as error messages are: for REST documents, tool names become their routes.
 */
export function descriptionsInTransport<T>(value: T, transport: Transport, registry: Registry): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (!node || typeof node !== 'object') return node
    return Object.fromEntries(Object.entries(node).map(([key, child]) =>
      [key, key === 'description' && typeof child === 'string' ? inTransport(child, transport, registry) : walk(child)]))
  }
  return walk(value) as T
}
