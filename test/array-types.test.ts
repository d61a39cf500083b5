// connect() runs postgres.js with fetch_types off (its pg_type lookup on each new connection could
// end the process on a database restart), so the array types are declared in src/db/array-types.ts.
// Here: every array type the schema uses is declared; each declared type reads back as a JS array
// and is sent from one, with what Postgres itself makes of the value (array_to_json) as the check.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, type Sql } from '../src/db/sql.js'
import { ensureDatabase, migrate } from '../src/db/migrate.js'
import { DECLARED_ARRAY_TYPES, parseArrayLiteral, serializeArrayLiteral } from '../src/db/array-types.js'

const OWNER_BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const name = `tradie_test_arrays_${randomBytes(5).toString('hex')}`
const url = new URL(OWNER_BASE)
url.pathname = `/${name}`
let sql: Sql

beforeAll(async () => {
  await ensureDatabase(url.toString())
  await migrate(url.toString())
  sql = connect(url.toString(), { max: 2 })
}, 60_000)
afterAll(async () => {
  await sql?.end()
  const admin = connect(OWNER_BASE, { max: 1 })
  await admin.unsafe(`drop database if exists "${name}" with (force)`)
  await admin.end()
})

const HOSTILE = ['plain', 'a,b', 'say "hi"', 'back\\slash', '{braces}', '', 'NULL', ' spaced ', 'tab\there', 'ünï ✓']

describe('array literals', () => {
  it('parses what Postgres writes: quoting, escapes, NULL, empty, nested, explicit bounds', () => {
    const text = (raw: string) => raw
    expect(parseArrayLiteral('{}', text)).toEqual([])
    expect(parseArrayLiteral('{a,"b c",NULL,"NULL",""}', text)).toEqual(['a', 'b c', null, 'NULL', ''])
    expect(parseArrayLiteral('{"a\\"b","c\\\\d","{x}","e,f"}', text)).toEqual(['a"b', 'c\\d', '{x}', 'e,f'])
    expect(parseArrayLiteral('{{1,2},{3,NULL}}', Number)).toEqual([[1, 2], [3, null]])
    expect(parseArrayLiteral('[0:1]={7,8}', Number)).toEqual([7, 8])
    for (const bad of ['{a', '{"a}', 'a}', '{a}x']) expect(() => parseArrayLiteral(bad, text)).toThrow(/malformed/)
  })

  it('writes every element quoted and escaped; a string passes through', () => {
    expect(serializeArrayLiteral(['a', 'b"c', 'd\\e', null, ''], String as never)).toBe('{"a","b\\"c","d\\\\e",NULL,""}')
    expect(serializeArrayLiteral([['a'], []], String as never)).toBe('{{"a"},{}}')
    expect(serializeArrayLiteral('{x}', String as never)).toBe('{x}')
  })
})

describe('array types through connect()', () => {
  it('every array type in the schema (columns, function arguments and results) is declared, and reads back as an array', async () => {
    const used = await sql<{ oid: number; type: string; where: string }[]>`
      select distinct t.oid::int as oid, format_type(t.oid, null) as type, c.relname || '.' || a.attname as where
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace join pg_type t on t.oid = a.atttypid
       where n.nspname = 'public' and t.typcategory = 'A' and a.attnum > 0 and not a.attisdropped
      union
      select distinct t.oid::int, format_type(t.oid, null), p.proname
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        cross join lateral unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]) || p.prorettype) as arg(oid)
        join pg_type t on t.oid = arg.oid
       where n.nspname = 'public' and t.typcategory = 'A'
         and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`
    // The schema's own (not an extension's): text[] columns (api_keys.scopes and more), uuid[] arguments.
    expect(used.map((u) => u.type)).toEqual(expect.arrayContaining(['text[]', 'uuid[]']))
    for (const { oid, type, where } of used) {
      expect(DECLARED_ARRAY_TYPES.has(oid), `${type} (${where}) is not declared in src/db/array-types.ts`).toBe(true)
      const [row] = await sql.unsafe(`select '{}'::${type} as empty, array[null]::${type} as one_null`)
      expect(row).toEqual({ empty: [], one_null: [null] })
    }
    const [scopes] = await sql<{ scopes: unknown }[]>`select scopes from (values (array['leads', 'quotes:write']::text[])) as api_keys(scopes)`
    expect(scopes!.scopes).toEqual(['leads', 'quotes:write'])
  })

  it.each([
    ['text[]', HOSTILE],
    ['varchar[]', HOSTILE],
    ['uuid[]', ['00000000-0000-4000-8000-000000000001', '6f1c2b3a-1d2e-4f5a-8b9c-0d1e2f3a4b5c']],
    ['int2[]', [1, -2, 32767]],
    ['int4[]', [0, -1, 2147483647]],
    ['int8[]', ['9007199254740993', '-1']],
    ['jsonb[]', [{ a: 1, 'q"': 'x,y' }, [1, 'two'], 'str', 3]],
  ])('%s: a JS array is sent as it is and read back as a JS array', async (type, values) => {
    const value = [...values, null]
    const [row] = await sql.unsafe(`select $1::${type} as back, array_to_json($1::${type}) as seen, cardinality($1::${type}) as n`, [value as never])
    expect(row!.back).toEqual(value)
    expect(row!.n).toBe(value.length)
    // Postgres's own reading of what was sent (int8 comes back as a JSON number there).
    expect(row!.seen).toEqual(type === 'int8[]' ? value.map((v) => (v === null ? null : Number(v))) : value)
  })

  it('bool[] reads back as booleans (postgres.js types a JS boolean parameter as bool, so none is sent as bool[])', async () => {
    const [row] = await sql<{ flags: unknown }[]>`select array[true, false, null]::bool[] as flags`
    expect(row!.flags).toEqual([true, false, null])
  })

  it('a uuid[] parameter as the code sends it (= any(${ids}::uuid[]))', async () => {
    const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']
    const rows = await sql<{ id: string }[]>`select id from unnest(${ids}::uuid[]) as t(id) where id = any(${ids.slice(1)}::uuid[])`
    expect(rows).toEqual([{ id: ids[1] }])
  })
})
