// Smaller JSON Schemas for tools/list, accepting and refusing exactly the same values:
// 1. `anyOf: [X, {type: 'null'}]` (TypeBox's Nullable, often with X's description repeated outside)
//    becomes X with `type: [X.type, 'null']` (and null added to an enum). X's other keywords only
//    constrain values of X's type, so null passes either way.
// 2. A subschema repeated within one tool's schema is written once under `$defs` and referenced with
//    `$ref: '#/$defs/<name>'` (JSON Schema 2020-12; ajv, which the MCP SDK client uses, resolves it).
// expandRefs undoes step 2, so a test can prove step 2 lost nothing.
type Schema = Record<string, unknown>

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v)
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Keywords whose values are schemas, or maps or lists of schemas. */
const SCHEMA_MAPS = ['properties', '$defs', 'patternProperties']
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'anyOf', 'oneOf', 'allOf', 'prefixItems']
// X with one of these does not become a plain typed schema: a combinator, a reference, or a const.
const NOT_MERGEABLE = ['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'const']

function mapSchemas(schema: Schema, f: (s: Schema) => Schema): Schema {
  const out: Schema = {}
  for (const [k, v] of Object.entries(schema)) {
    if (SCHEMA_MAPS.includes(k) && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, isObject(s) ? f(s) : s]))
    else if (SCHEMA_VALUES.includes(k)) out[k] = Array.isArray(v) ? v.map((s) => (isObject(s) ? f(s) : s)) : isObject(v) ? f(v) : v
    else out[k] = v
  }
  return out
}

/** Step 1: nullable unions as type lists. */
export function collapseNullable(schema: Schema): Schema {
  const out = mapSchemas(schema, collapseNullable)
  const anyOf = out.anyOf
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return out
  const nullAt = anyOf.findIndex((s) => isObject(s) && s.type === 'null' && Object.keys(s).length === 1)
  const x = anyOf[1 - nullAt] as Schema | undefined
  if (nullAt < 0 || !isObject(x) || typeof x.type !== 'string' || x.type === 'null') return out
  if (NOT_MERGEABLE.some((k) => k in x)) return out
  const { anyOf: _dropped, ...outer } = out
  // The outer schema may only repeat X's keywords with the same values (a repeated description).
  if (Object.keys(x).some((k) => k in outer && !same(outer[k], x[k]))) return out
  const merged: Schema = { ...outer, ...x, type: [x.type, 'null'] }
  if (Array.isArray(x.enum)) merged.enum = [...x.enum, null]
  return merged
}

/** Every subschema below the root, as JSON text, with how often it occurs and a name hint. */
function countSubschemas(root: Schema): Map<string, { count: number; hint: string }> {
  const counts = new Map<string, { count: number; hint: string }>()
  const visit = (s: Schema, hint: string) => {
    const key = JSON.stringify(s)
    const seen = counts.get(key)
    if (seen) seen.count++
    else counts.set(key, { count: 1, hint })
    walk(s)
  }
  const walk = (s: Schema) => {
    for (const [k, v] of Object.entries(s)) {
      if (k === '$defs') continue
      if (SCHEMA_MAPS.includes(k) && isObject(v)) for (const [n, c] of Object.entries(v)) { if (isObject(c)) visit(c, n) }
      else if (SCHEMA_VALUES.includes(k)) for (const c of Array.isArray(v) ? v : [v]) { if (isObject(c)) visit(c, k === 'items' ? 'item' : 'def') }
    }
  }
  walk(root)
  for (const d of Object.values(isObject(root.$defs) ? root.$defs : {})) if (isObject(d)) walk(d)
  return counts
}

function replaceAll(s: Schema, key: string, ref: Schema): Schema {
  return mapSchemas(s, (c) => (JSON.stringify(c) === key ? ref : replaceAll(c, key, ref)))
}

/** Step 2: the repeated subschema that saves the most goes to $defs, until none saves anything. */
export function hoistRepeats(schema: Schema): Schema {
  let root = schema
  const defs: Schema = isObject(schema.$defs) ? { ...schema.$defs } : {}
  for (;;) {
    let best: { key: string; hint: string; saving: number } | null = null
    for (const [key, { count, hint }] of countSubschemas(root)) {
      const refLength = `{"$ref":"#/$defs/${hint}"}`.length + 2
      const saving = (count - 1) * key.length - count * refLength - hint.length - 4
      if (count > 1 && saving > 0 && (!best || saving > best.saving)) best = { key, hint, saving }
    }
    if (!best) break
    const base = best.hint.replace(/[^A-Za-z0-9_]/g, '_') || 'def'
    let name = base
    for (let i = 2; name in defs; i++) name = `${base}_${i}`
    const ref = { $ref: `#/$defs/${name}` }
    const { $defs: _old, ...body } = root
    const rewritten = replaceAll(body, best.key, ref)
    for (const [n, d] of Object.entries(defs)) defs[n] = replaceAll(d as Schema, best.key, ref)
    defs[name] = JSON.parse(best.key)
    root = { ...rewritten, $defs: { ...defs } }
  }
  return root
}

export const compactSchema = (schema: Schema): Schema => hoistRepeats(collapseNullable(schema))

/** A schema with every local `#/$defs/...` reference replaced by its definition, and no $defs. */
export function expandRefs(schema: Schema): Schema {
  const defs = isObject(schema.$defs) ? schema.$defs : {}
  const expand = (s: Schema): Schema => {
    if (typeof s.$ref === 'string' && s.$ref.startsWith('#/$defs/')) return expand(defs[s.$ref.slice(8)] as Schema)
    return mapSchemas(s, expand)
  }
  const { $defs: _defs, ...body } = schema
  return expand(body)
}
