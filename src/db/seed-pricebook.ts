// Loads the shipped price-book catalogue (src/domains/pricebook/catalogue/catalogue.json) into
// pricebook_catalogue after every migrate, under migrate's advisory lock. Idempotent: the file's
// SHA-256 is recorded, so an unchanged file costs one lookup; a changed file replaces the rows in
// one statement (new SKUs inserted, changed ones updated, dropped ones deleted).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type postgres from 'postgres'

const CATALOGUE_FILE = new URL('../domains/pricebook/catalogue/catalogue.json', import.meta.url)

export async function seedPricebookCatalogue(sql: postgres.Sql | postgres.ReservedSql): Promise<boolean> {
  const text = readFileSync(CATALOGUE_FILE, 'utf8')
  const sha256 = createHash('sha256').update(text).digest('hex')
  const [loaded] = await sql`select 1 from pricebook_catalogue_versions where sha256 = ${sha256}`
  if (loaded) return false
  const items = (JSON.parse(text) as { items: { indicative_range: Record<string, unknown> | null }[] }).items
  const rows = items.map(({ indicative_range: range, ...item }) => ({
    ...item,
    range_low_cents: range?.low_cents ?? null,
    range_high_cents: range?.high_cents ?? null,
    range_basis: range?.basis ?? null,
    range_text: range?.text ?? null,
    range_source: range?.source ?? null,
    range_as_of: range?.as_of ?? null,
  }))
  await sql`
    with data as (
      select * from jsonb_to_recordset(${sql.json(rows as never)}::jsonb) as x(
        sku text, description text, unit text, trade text, category text, subcategory text,
        range_low_cents integer, range_high_cents integer, range_basis text, range_text text, range_source text, range_as_of text)
    ), upserted as (
      insert into pricebook_catalogue (sku, description, unit, trade, category, subcategory,
        range_low_cents, range_high_cents, range_basis, range_text, range_source, range_as_of)
      select * from data
      on conflict (sku) do update set description = excluded.description, unit = excluded.unit, trade = excluded.trade,
        category = excluded.category, subcategory = excluded.subcategory, range_low_cents = excluded.range_low_cents,
        range_high_cents = excluded.range_high_cents, range_basis = excluded.range_basis, range_text = excluded.range_text,
        range_source = excluded.range_source, range_as_of = excluded.range_as_of
      returning 1
    ), dropped as (
      delete from pricebook_catalogue where sku not in (select sku from data) returning 1
    )
    insert into pricebook_catalogue_versions (sha256, items)
    select ${sha256}, count(*) from upserted`
  return true
}
