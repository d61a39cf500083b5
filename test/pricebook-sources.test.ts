// The shipped catalogue's data rule (issue 25): no invented figure ships. Every item with a price
// range carries its source and as-of date; the catalogue has at least 930 items across all ten
// trades; the committed catalogue.json is exactly what its generator writes from the family lists;
// and the database a test starts on holds exactly the file's rows.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from './helpers/app.js'
import { CATALOGUE_FILE, catalogueJson } from '../src/domains/pricebook/catalogue/generate.js'
import { TRADES } from '../src/domains/pricebook/catalogue/families.js'
import { seedPricebookCatalogue } from '../src/db/seed-pricebook.js'

const text = readFileSync(CATALOGUE_FILE, 'utf8')
const items: any[] = JSON.parse(text).items

describe('the shipped catalogue file', () => {
  it('every item with a price range has a source and an as-of date, and a sane range', () => {
    const priced = items.filter((i) => i.indicative_range !== null)
    expect(priced.length).toBeGreaterThan(0)
    for (const { sku, indicative_range: r } of priced) {
      expect(r.source, sku).toMatch(/\S{4,}/)
      expect(r.as_of, sku).toMatch(/\b(19|20)\d{2}\b/)
      expect(r.basis, sku).toMatch(/\S/)
      expect(r.text, sku).toMatch(/\$\d/)
      expect(Number.isInteger(r.low_cents) && Number.isInteger(r.high_cents), sku).toBe(true)
      expect(r.low_cents, sku).toBeGreaterThan(0)
      expect(r.high_cents, sku).toBeGreaterThanOrEqual(r.low_cents)
    }
  })

  it('no item carries a price of any other kind (a figure without a source cannot ship)', () => {
    for (const item of items) {
      expect(Object.keys(item).sort(), item.sku).toEqual(['category', 'description', 'indicative_range', 'sku', 'subcategory', 'trade', 'unit'])
      expect(item.description, item.sku).not.toMatch(/\$\s?\d/)
    }
  })

  it('has at least 930 items across all ten trades, each with SKU, description, unit, trade, category and subcategory', () => {
    expect(items.length).toBeGreaterThanOrEqual(930)
    expect(new Set(items.map((i) => i.sku)).size).toBe(items.length)
    expect([...new Set(items.map((i) => i.trade))].sort()).toEqual([...TRADES].sort())
    expect(TRADES).toHaveLength(10)
    for (const trade of TRADES) expect(items.filter((i) => i.trade === trade).length, trade).toBeGreaterThanOrEqual(80)
    for (const item of items) {
      for (const field of ['sku', 'description', 'unit', 'trade', 'category', 'subcategory']) expect(item[field], `${item.sku}.${field}`).toMatch(/\S/)
    }
  })

  it('is exactly what generate.ts writes from the family lists (regenerate after changing them)', () => {
    expect(text === catalogueJson(), 'run: npx tsx src/domains/pricebook/catalogue/generate.ts').toBe(true)
  })
})

describe('the catalogue in the database', () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startTestApp()
  })
  afterAll(async () => {
    await app?.stop()
  })

  it('holds exactly the file: every SKU, and a range only with its source and date', async () => {
    const rows = await app.owner`select sku, range_low_cents, range_high_cents, range_source, range_as_of from pricebook_catalogue order by sku`
    expect(rows.map((r) => r.sku)).toEqual(items.map((i) => i.sku).sort())
    const bySku = new Map(items.map((i) => [i.sku, i]))
    for (const row of rows) {
      const range = bySku.get(row.sku).indicative_range
      expect(row.range_low_cents, row.sku).toBe(range?.low_cents ?? null)
      expect(row.range_high_cents, row.sku).toBe(range?.high_cents ?? null)
      expect(row.range_source, row.sku).toBe(range?.source ?? null)
      expect(row.range_as_of, row.sku).toBe(range?.as_of ?? null)
    }
  })

  it('loading it again is a no-op: the file is recorded by its SHA-256', async () => {
    expect(await seedPricebookCatalogue(app.owner)).toBe(false)
    const [versions] = await app.owner`select count(*)::int as n, max(items) as items from pricebook_catalogue_versions`
    expect(versions).toEqual({ n: 1, items: items.length })
  })

  it('refuses a range without a source, and the app cannot write the catalogue', async () => {
    await expect(app.owner`update pricebook_catalogue set range_source = null where sku = 'PLB-LAB-STANDARD'`).rejects.toThrow(/check constraint/)
    await expect(app.owner`update pricebook_catalogue set range_low_cents = 100, range_high_cents = 200 where sku = 'PLB-CUP-15MM'`).rejects.toThrow(/check constraint/)
    const [grant] = await app.owner`select has_table_privilege('tradie_app', 'pricebook_catalogue', 'UPDATE') as can_update, has_table_privilege('tradie_app', 'pricebook_catalogue', 'SELECT') as can_read`
    expect(grant).toEqual({ can_update: false, can_read: true })
  })
})
