// Tool catalogue views for tools/list and GET /mcp: stable order, opaque cursors, optional
// underscore names (for clients that reject dots), toolset and read-only filters.
import type { AnyOperation } from '../../core/operation.js'
import type { Registry } from '../../core/registry.js'
import { plain } from '../openapi.js'
import { RPC, RpcError } from './protocol.js'

export const PAGE_SIZE = 50

export interface CatalogueView {
  underscoreNames: boolean
  toolsets: string[] | null
  readOnly: boolean
}

export const toUnderscore = (name: string) => name.replace('.', '_')

type ToolDescription = ReturnType<typeof buildDescription>

const IDEMPOTENCY_KEY_ARGUMENT = {
  type: 'string', minLength: 1, maxLength: 255,
  description: 'Optional. Retrying this call after a timeout? Send the same key (a UUID) with the same arguments: it runs once and the first result is returned again for 24 hours. The same key with other arguments is refused (idempotency_conflict).',
}

/** The operation's input schema; write tools also list the idempotency_key argument the pipeline accepts. */
function toolInputSchema(op: AnyOperation) {
  const schema = plain(op.input) as { properties?: Record<string, unknown> }
  if (op.annotations.readOnlyHint === true) return schema
  return { ...schema, properties: { ...schema.properties, idempotency_key: IDEMPOTENCY_KEY_ARGUMENT } }
}

function buildDescription(op: AnyOperation, underscoreNames: boolean) {
  return {
    name: underscoreNames ? toUnderscore(op.name) : op.name,
    title: op.title,
    description: op.description,
    inputSchema: toolInputSchema(op),
    // Clients that know outputSchema (2025-06-18 on) validate structuredContent against it.
    ...(op.planned ? {} : { outputSchema: plain(op.output) }),
    annotations: { title: op.title, ...op.annotations },
    _meta: {
      toolset: op.domain,
      cost: op.cost,
      ...(op.planned ? { available: false, capability: op.planned.capability } : { available: true }),
    },
  }
}

// Descriptions never change while the process runs: build each once, not on every tools/list.
const described = new WeakMap<AnyOperation, { dotted: ToolDescription; underscore: ToolDescription }>()

export function describeTool(op: AnyOperation, view: Pick<CatalogueView, 'underscoreNames'>): ToolDescription {
  let d = described.get(op)
  if (!d) {
    d = { dotted: buildDescription(op, false), underscore: buildDescription(op, true) }
    described.set(op, d)
  }
  return view.underscoreNames ? d.underscore : d.dotted
}

export function filteredTools(registry: Registry, view: CatalogueView): AnyOperation[] {
  return registry.mcpTools().filter((op) =>
    (!view.toolsets || view.toolsets.includes(op.domain)) && (!view.readOnly || op.annotations.readOnlyHint === true))
}

function signature(view: CatalogueView): string {
  return `${view.underscoreNames ? 'u' : 'd'}|${view.toolsets?.join(',') ?? '*'}|${view.readOnly ? 'r' : 'a'}`
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
  return { tools: page.map((op) => describeTool(op, view)), ...(next ? { nextCursor: next } : {}) }
}

/** Finds a tool by its dotted or underscore name. */
export function findTool(registry: Registry, name: string): AnyOperation | undefined {
  const op = registry.get(name) ?? registry.get(name.replace('_', '.'))
  return op && op.mcp !== false ? op : undefined
}
