// Tool catalogue views for tools/list and GET /mcp: stable order, opaque cursors, optional
// underscore names (for clients that reject dots), toolset, named-tool and read-only filters.
// An agent's context pays for every byte listed, so schemas are listed compacted
// (compact-schema.ts: the same values accepted), and output schemas come with a listing of named
// tools or when asked for (output_schemas): the list of every tool and of a toolset stay affordable.
import type { AnyOperation } from '../../core/operation.js'
import type { Registry } from '../../core/registry.js'
import { plain } from '../openapi.js'
import { compactSchema } from './compact-schema.js'
import { RPC, RpcError } from './protocol.js'

export const PAGE_SIZE = 50

export interface CatalogueView {
  underscoreNames: boolean
  toolsets: string[] | null
  readOnly: boolean
  /** Only these tools (dotted or underscore names), in this order. */
  names?: string[] | null
  /** Output schemas listed or not; unset: listed when toolsets or names narrow the listing. */
  outputSchemas?: boolean | null
  /** Tool results carry their whole JSON as text too (result-text.ts), for hosts that show only the text. */
  fullText?: boolean
}

/**
 * The `core` toolset: one job from enquiry to review (lead -> quote -> job -> paid invoice ->
 * review), across domains, small enough to list with its output schemas.
 */
export const CORE_TOOLSET = {
  name: 'core',
  description: 'One job end to end: lead -> quote -> job -> paid invoice -> review (tools from several toolsets).',
  // invoicing.generate sends the invoice with its payment link; payments.send_link (a resend) is left out.
  tools: ['leads.create', 'quotes.create', 'quotes.send', 'jobs.create', 'jobs.complete', 'invoicing.generate', 'reviews.request'],
} as const

export const toUnderscore = (name: string) => name.replace('.', '_')

type ToolDescription = ReturnType<typeof buildDescription>

// Written into every write tool's schema, so it stays short: the initialize instructions say the rest.
const IDEMPOTENCY_KEY_ARGUMENT = {
  type: 'string', minLength: 1, maxLength: 255,
  description: 'Optional retry key (UUID): the same key and arguments run once (24 h)',
}

/** The operation's input schema; write tools also list the idempotency_key argument the pipeline accepts. */
function toolInputSchema(op: AnyOperation) {
  const schema = plain(op.input) as { properties?: Record<string, unknown> }
  if (op.annotations.readOnlyHint === true) return schema
  return { ...schema, properties: { ...schema.properties, idempotency_key: IDEMPOTENCY_KEY_ARGUMENT } }
}

/** The tool as reviewed (tools.snapshot.json): plain schemas, every annotation. */
export function reviewedTool(op: AnyOperation) {
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: toolInputSchema(op),
    outputSchema: op.planned ? undefined : plain(op.output),
    annotations: { title: op.title, ...op.annotations },
  }
}

// MCP's defaults (ToolAnnotations): a hint equal to its default says nothing, so it is not listed;
// nor is annotations.title, the tool's own title repeated (clients since 2025-06-18 read the top one).
const ANNOTATION_DEFAULTS: Record<string, unknown> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true }
const listedAnnotations = (annotations: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(annotations).filter(([k, v]) => k !== 'title' && ANNOTATION_DEFAULTS[k] !== v))

function buildDescription(op: AnyOperation) {
  const reviewed = reviewedTool(op)
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: compactSchema(reviewed.inputSchema),
    // Clients that know outputSchema (2025-06-18 on) validate structuredContent against it.
    ...(reviewed.outputSchema ? { outputSchema: compactSchema(reviewed.outputSchema) } : {}),
    annotations: listedAnnotations(reviewed.annotations),
    // available is listed only when false (a planned tool), with the capability that brings it.
    _meta: {
      toolset: op.domain,
      cost: op.cost,
      ...(op.planned ? { available: false, capability: op.planned.capability } : {}),
    },
  }
}

export type ListedTool = Omit<ToolDescription, 'outputSchema'> & { outputSchema?: Record<string, unknown> }

// Descriptions never change while the process runs: build each once, not on every tools/list.
const described = new WeakMap<AnyOperation, { dotted: ToolDescription; underscore: ToolDescription }>()

export function describeTool(op: AnyOperation, view: Pick<CatalogueView, 'underscoreNames'> & { outputSchemas?: boolean }): ListedTool {
  let d = described.get(op)
  if (!d) {
    const dotted = buildDescription(op)
    d = { dotted, underscore: { ...dotted, name: toUnderscore(op.name) } }
    described.set(op, d)
  }
  const tool = view.underscoreNames ? d.underscore : d.dotted
  if (view.outputSchemas !== false) return tool
  const { outputSchema: _left, ...rest } = tool
  return rest
}

/**
 * Whether a listing in this view carries output schemas: when asked (output_schemas), and by default
 * only for a listing of named tools, where the caller has picked what it will call. Toolset listings
 * (core included) and the full listing leave them out unless asked, to stay small.
 */
export const listsOutputSchemas = (view: CatalogueView): boolean =>
  view.outputSchemas ?? Boolean(view.names?.length)

const inToolsets = (op: AnyOperation, toolsets: string[]) =>
  toolsets.includes(op.domain) || (toolsets.includes(CORE_TOOLSET.name) && (CORE_TOOLSET.tools as readonly string[]).includes(op.name))

/** The named tools, in the order asked; an unknown name is an invalid-params error naming it. */
function namedTools(registry: Registry, names: string[]): AnyOperation[] {
  const unknown = names.filter((n) => !findTool(registry, n))
  if (unknown.length) {
    throw new RpcError(RPC.INVALID_PARAMS, `Unknown tool name${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 10).join(', ')}. Names are as tools/list gives them (leads.create or leads_create); list without names to see them all.`, {
      error: 'validation_error', message: `Unknown tool names: ${unknown.slice(0, 10).join(', ')}`, unknown_names: unknown.slice(0, 10),
    })
  }
  return [...new Set(names.map((n) => findTool(registry, n)!))]
}

export function filteredTools(registry: Registry, view: CatalogueView): AnyOperation[] {
  const base = view.names?.length ? namedTools(registry, view.names) : registry.mcpTools()
  return base.filter((op) =>
    (!view.toolsets?.length || inToolsets(op, view.toolsets)) && (!view.readOnly || op.annotations.readOnlyHint === true))
}

function signature(view: CatalogueView): string {
  return `${view.underscoreNames ? 'u' : 'd'}|${view.toolsets?.join(',') ?? '*'}|${view.readOnly ? 'r' : 'a'}|${view.names?.join(',') ?? '*'}|${listsOutputSchemas(view) ? 'o' : 'n'}`
}

export function encodeCursor(offset: number, sig: string): string {
  return Buffer.from(JSON.stringify({ o: offset, s: sig })).toString('base64url')
}

export function decodeCursor(cursor: unknown, sig: string): number {
  if (cursor === undefined || cursor === null) return 0
  try {
    const parsed = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8')) as { o: number; s: string }
    if (Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.s === sig) return parsed.o
  } catch {
    /* fall through */
  }
  throw new RpcError(RPC.INVALID_PARAMS, 'Invalid cursor: use the nextCursor from the previous page of the same listing.')
}

export function listTools(registry: Registry, view: CatalogueView, cursor: unknown) {
  const tools = filteredTools(registry, view)
  const sig = signature(view)
  const offset = decodeCursor(cursor, sig)
  const page = tools.slice(offset, offset + PAGE_SIZE)
  const next = offset + PAGE_SIZE < tools.length ? encodeCursor(offset + PAGE_SIZE, sig) : undefined
  const outputSchemas = listsOutputSchemas(view)
  return { tools: page.map((op) => describeTool(op, { underscoreNames: view.underscoreNames, outputSchemas })), ...(next ? { nextCursor: next } : {}) }
}

const MAX_NAMES = 200

/** tools/list params narrow the connection's view: names, toolsets, read_only, output_schemas. */
export function viewWithParams(view: CatalogueView, params: Record<string, unknown>): CatalogueView {
  const list = (key: string): string[] | undefined => {
    const v = params[key]
    if (v === undefined || v === null) return undefined
    const items = typeof v === 'string' ? v.split(',') : v
    if (!Array.isArray(items) || items.length > MAX_NAMES || !items.every((i) => typeof i === 'string' && i.length <= 100)) {
      throw new RpcError(RPC.INVALID_PARAMS, `tools/list params.${key} must be an array of at most ${MAX_NAMES} names, e.g. ["leads.create", "quotes.send"].`)
    }
    return items.map((i) => i.trim()).filter(Boolean)
  }
  const flag = (key: string): boolean | undefined => {
    const v = params[key]
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'boolean') throw new RpcError(RPC.INVALID_PARAMS, `tools/list params.${key} must be true or false.`)
    return v
  }
  return {
    ...view,
    names: list('names') ?? view.names ?? null,
    toolsets: list('toolsets') ?? view.toolsets,
    readOnly: flag('read_only') ?? view.readOnly,
    outputSchemas: flag('output_schemas') ?? view.outputSchemas ?? null,
  }
}

/** Finds a tool by its dotted or underscore name. */
export function findTool(registry: Registry, name: string): AnyOperation | undefined {
  const op = registry.get(name) ?? registry.get(name.replace('_', '.'))
  return op && op.mcp !== false ? op : undefined
}
