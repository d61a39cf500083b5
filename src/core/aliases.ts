// One naming rule for arguments (docs/decisions.md, "Naming"): each is listed under one spelling,
// the spec's where it names one (lead_id, jobId, serviceType) and snake_case for new ones. Where the
// spec's spelling is camelCase, the snake_case one (job_id for jobId) is accepted too. Snake_case
// names take no alias: an unknown camelCase field (businessName) stays a typo to report. Applied to
// the raw input before validation, following the input schema, so no operation lists its aliases.
import type { TSchema } from 'typebox'
import { validationError } from './errors.js'

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** The other accepted spelling of a listed argument name: snake_case for a camelCase name. */
export function aliasOf(name: string): string | null {
  return /[A-Z]/.test(name) ? snakeCase(name) : null
}

type SchemaNode = { properties?: Record<string, SchemaNode>; items?: SchemaNode; anyOf?: SchemaNode[]; oneOf?: SchemaNode[] }

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function rename(node: SchemaNode, value: unknown, path: string, problems: string[]): void {
  if (Array.isArray(value) && node.items) {
    value.forEach((item, i) => rename(node.items!, item, `${path}${i}.`, problems))
    return
  }
  for (const member of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) rename(member, value, path, problems)
  if (!node.properties || !isPlainObject(value)) return
  for (const [listed, child] of Object.entries(node.properties)) {
    const alias = aliasOf(listed)
    if (alias && alias in value && !(alias in node.properties)) {
      if (listed in value && JSON.stringify(value[listed]) !== JSON.stringify(value[alias])) {
        problems.push(`${path}${alias}: is another spelling of ${listed}; give one of them`)
      } else {
        value[listed] = value[alias]
      }
      delete value[alias]
    }
    if (listed in value) rename(child, value[listed], `${path}${listed}.`, problems)
  }
}

// Most inputs list no camelCase name, so there is no alias to move: skip the copy and the walk.
const aliasedNames = new WeakMap<TSchema, boolean>()

function hasAliasedNames(schema: TSchema): boolean {
  let known = aliasedNames.get(schema)
  if (known === undefined) {
    const walk = (node: SchemaNode): boolean =>
      Object.entries(node.properties ?? {}).some(([name, child]) => aliasOf(name) !== null || walk(child)) ||
      (node.items !== undefined && walk(node.items)) ||
      [...(node.anyOf ?? []), ...(node.oneOf ?? [])].some(walk)
    known = walk(schema as SchemaNode)
    aliasedNames.set(schema, known)
  }
  return known
}

/**
 * Returns raw with alias spellings moved to the listed names (throws on a clash): a copy when the
 * schema lists any camelCase name, raw itself when it lists none (nothing could move).
 */
export function acceptAliases(schema: TSchema, raw: Record<string, unknown>): Record<string, unknown> {
  if (!hasAliasedNames(schema)) return raw
  const copy = structuredClone(raw)
  const problems: string[] = []
  rename(schema as SchemaNode, copy, '', problems)
  if (problems.length) throw validationError(problems)
  return copy
}
