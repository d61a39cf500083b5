// Array types for the driver, declared here instead of looked up. postgres.js (fetch_types, its
// default) queries pg_type on every new connection to learn the array types, and drops that query's
// promise: when the connection closes during it (a database restart while the pool reconnects) the
// rejection is unhandled and ends the process (porsager/postgres issues 1192, 1205, 1223). With
// fetch_types off the driver knows no array type at all: a text[] column reads as the string
// '{a,b}' and a JS array sent for a uuid[] parameter is refused as a malformed literal. So the
// array types the code reads or sends are listed here, by their built-in OIDs, which are fixed in
// Postgres's catalogue (pg_type.dat) and the same in every database; test/array-types.test.ts
// fails when the schema uses an array type that is not listed.

/** A parsed array: nested for a multi-dimensional one; a SQL NULL element is null. */
export type ArrayValue<T> = (T | null | ArrayValue<T>)[]

/**
 * Parses Postgres's text output of an array ('{a,"b c",NULL}', '{{1,2},{3,4}}', '[0:1]={1,2}'),
 * applying `element` to each element that is not NULL. Postgres quotes an element when it is empty,
 * holds a delimiter, brace, quote, backslash or white space, or reads NULL, and escapes quotes and
 * backslashes inside quotes with a backslash; so an unquoted NULL is the SQL NULL.
 */
export function parseArrayLiteral<T>(text: string, element: (raw: string) => T): ArrayValue<T> {
  // Explicit bounds ('[0:1]={...}') are written only when the lower bound is not 1; JS arrays start at 0 anyway.
  let i = text.startsWith('[') ? text.indexOf('=') + 1 : 0
  const malformed = () => new Error(`malformed array literal at ${i}: ${text.slice(0, 200)}`)

  function list(): ArrayValue<T> {
    if (text[i] !== '{') throw malformed()
    i++
    const items: ArrayValue<T> = []
    if (text[i] === '}') {
      i++
      return items
    }
    for (;;) {
      if (text[i] === '{') items.push(list())
      else if (text[i] === '"') items.push(element(quoted()))
      else {
        const start = i
        while (i < text.length && text[i] !== ',' && text[i] !== '}') i++
        const raw = text.slice(start, i)
        items.push(raw === 'NULL' ? null : element(raw))
      }
      const separator = text[i++]
      if (separator === '}') return items
      if (separator !== ',') throw malformed()
    }
  }

  function quoted(): string {
    let value = ''
    let start = ++i
    for (;;) {
      if (i >= text.length) throw malformed()
      if (text[i] === '"') break
      if (text[i] === '\\') {
        value += text.slice(start, i)
        start = ++i // the escaped character is kept as it is
      }
      i++
    }
    value += text.slice(start, i++)
    return value
  }

  const parsed = list()
  if (i !== text.length) throw malformed()
  return parsed
}

/**
 * Writes a JS array as a Postgres array literal: every element quoted (so no element is mistaken for
 * NULL or split at a comma), quotes and backslashes escaped, null as NULL, nested arrays as
 * sub-arrays (not for jsonb[], whose elements may be JSON arrays: `nested` false). A string is
 * passed through as an array literal already written.
 */
export function serializeArrayLiteral(value: unknown, element: (x: never) => string, nested = true): unknown {
  if (!Array.isArray(value)) return value
  const write = (xs: unknown[]): string =>
    '{' + xs.map((x) => (x === null || x === undefined ? 'NULL' : nested && Array.isArray(x) ? write(x) : '"' + element(x as never).replace(/[\\"]/g, '\\$&') + '"')).join(',') + '}'
  return write(value)
}

interface ArrayType {
  to: number
  from: number[]
  serialize: (value: unknown) => unknown
  parse: (raw: string) => unknown
}

function arrayType<T>(oid: number, parse: (raw: string) => T, serialize: (x: T) => string, nested = true): ArrayType {
  return {
    to: oid,
    from: [oid],
    serialize: (value) => serializeArrayLiteral(value, serialize as (x: never) => string, nested),
    parse: (raw) => parseArrayLiteral(raw, parse),
  }
}

const asText = (raw: string) => raw
const asNumber = (raw: string) => Number(raw)

/**
 * Elements read as postgres.js reads the same type outside an array: text and uuid as strings,
 * int2/int4 as numbers, int8 as a string (a number could lose digits), boolean, jsonb parsed.
 * Keyed by name for postgres.js's `types` option; the OID (array type) is what matters.
 */
export const arrayTypes = {
  text_array: arrayType(1009, asText, String),
  varchar_array: arrayType(1015, asText, String),
  uuid_array: arrayType(2951, asText, String),
  int2_array: arrayType(1005, asNumber, String),
  int4_array: arrayType(1007, asNumber, String),
  int8_array: arrayType(1016, asText, String),
  bool_array: arrayType(1000, (raw) => raw === 't', (x: boolean) => (x ? 't' : 'f')),
  jsonb_array: arrayType(3807, (raw) => JSON.parse(raw) as unknown, (x: unknown) => JSON.stringify(x), false),
} satisfies Record<string, ArrayType>

/** The OIDs of the array types above. */
export const DECLARED_ARRAY_TYPES: ReadonlySet<number> = new Set(Object.values(arrayTypes).map((t) => t.to))
