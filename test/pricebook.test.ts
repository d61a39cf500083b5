// Price book (issue 25, item 2) through the MCP SDK client on real Postgres: search by trade,
// subcategory and misspelt text over the shipped catalogue, the company's own items first, paging;
// a supplier CSV import with bad rows (reported by line, good rows kept), re-imports that update
// instead of duplicating, GST-inclusive and exclusive buy prices checked against a computation
// written here, catalogue items copied in, and tenancy (company B never sees company A's items).
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

interface ShippedItem { sku: string; description: string; trade: string; subcategory: string }
const shipped: ShippedItem[] = JSON.parse(readFileSync(new URL('../src/domains/pricebook/catalogue/catalogue.json', import.meta.url), 'utf8')).items

let app: TestApp
let clientA: McpClient
let clientB: McpClient
beforeAll(async () => {
  app = await startTestApp()
  const a = await onboard(app, { plan: 'business' })
  const b = await onboard(app, { plan: 'business' })
  clientA = await connectHttp(app, a.api_key)
  clientB = await connectHttp(app, b.api_key)
})
afterAll(async () => {
  await clientA?.close()
  await clientB?.close()
  await app?.stop()
})

const search = (client: McpClient, args: Record<string, unknown>) => tool(client, 'pricebook.search', args)
const importList = (client: McpClient, args: Record<string, unknown>) => tool(client, 'pricebook.import', args)

/** Every page of a search, walked by nextCursor. */
async function walk(client: McpClient, args: Record<string, unknown>) {
  const items: any[] = []
  let cursor: string | undefined
  for (let pages = 0; pages < 50; pages++) {
    const page = await search(client, { ...args, ...(cursor ? { cursor } : {}) })
    items.push(...page.items)
    if (!page.nextCursor) return { items, total: page.total }
    cursor = page.nextCursor
  }
  throw new Error('more than 50 pages')
}

// Independent of src/core/gst.ts: a GST-inclusive price holds 1/11 GST, so ex GST is 10/11 of it
// (never exactly half a cent: 11 is odd); a markup of m% multiplies by (100 + m) / 100, rounded
// half up to the cent.
const exGstCents = (inclCents: number) => Math.round((inclCents * 10) / 11)
const withMarkup = (cents: number, percent: number) => Math.floor((cents * (100 + percent) * 2 + 100) / 200)

describe('search over the shipped catalogue', () => {
  it('by trade: exactly the catalogue items of that trade; the words tradies use for a trade work too', async () => {
    const plumbing = await walk(clientA, { trade: 'plumbing', limit: 100 })
    const expected = shipped.filter((i) => i.trade === 'plumbing').map((i) => i.sku).sort()
    expect(plumbing.total).toBe(expected.length)
    expect(plumbing.items.map((i) => i.sku).sort()).toEqual(expected)
    expect(plumbing.items.every((i) => i.source === 'catalogue' && i.cost === null && i.supplier === null)).toBe(true)

    const byWord = await search(clientA, { trade: 'Plumber', limit: 1 })
    expect(byWord.total).toBe(expected.length)
    const aircon = await search(clientA, { trade: 'air conditioning', limit: 1 })
    expect(aircon.total).toBe(shipped.filter((i) => i.trade === 'hvac').length)
    expect(aircon.items[0].trade).toBe('hvac')
  })

  it('a misspelt description ("hot water sytem") finds the hot water systems, most relevant first', async () => {
    const systems = shipped.filter((i) => /^Hot water system/.test(i.description))
    expect(systems.length).toBeGreaterThanOrEqual(10)
    const found = await search(clientA, { query: 'hot water sytem', limit: 50 })
    const top = found.items.slice(0, systems.length)
    expect(top.map((i: any) => i.sku).sort()).toEqual(systems.map((i) => i.sku).sort())
    expect(found.items[0].relevance_score).toBeGreaterThan(found.items.at(-1).relevance_score)
    // With a trade, only that trade's systems (gas ones are the gas trade's).
    const gas = await search(clientA, { query: 'hot water sytem', trade: 'gas' })
    expect(gas.items.length).toBeGreaterThan(0)
    expect(gas.items.every((i: any) => i.trade === 'gas')).toBe(true)
  })

  it('by subcategory (any case), and typos in a product name: "coper elbow 20mm"', async () => {
    const hotWater = await walk(clientA, { subcategory: 'Hot Water', limit: 100 })
    expect(hotWater.items.map((i) => i.sku).sort()).toEqual(shipped.filter((i) => i.subcategory === 'hot water').map((i) => i.sku).sort())
    const elbows = await search(clientA, { query: 'coper elbow 20mm', limit: 5 })
    for (const item of elbows.items.slice(0, 3)) expect(item.description).toMatch(/copper.*elbow.*20mm/i)
  })

  it('pages: cursor and offset walk the same ranked order, each item once; a forged cursor is a validation_error', async () => {
    const all = await walk(clientA, { trade: 'tiling', limit: 7 })
    expect(all.items).toHaveLength(all.total)
    expect(new Set(all.items.map((i) => i.id)).size).toBe(all.total)
    const second = await search(clientA, { trade: 'tiling', limit: 7, offset: 7 })
    expect(second.items.map((i: any) => i.id)).toEqual(all.items.slice(7, 14).map((i) => i.id))
    const last = await search(clientA, { trade: 'tiling', limit: 7, offset: all.total - 3 })
    expect(last.items).toHaveLength(3)
    expect(last.nextCursor).toBeNull()
    for (const cursor of ['!!nope!!', Buffer.from('["pricebook",-7]').toString('base64url'), Buffer.from('["x",7]').toString('base64url')]) {
      const error = await toolError(clientA, 'pricebook.search', { cursor })
      expect(error.error).toBe('validation_error')
      expect(error.messages[0]).toMatch(/^cursor: /)
    }
  })

  it('a sourced range comes with its source and date; an item without one says why it has no price', async () => {
    const labour = await search(clientA, { query: 'plumber labour', trade: 'plumbing', limit: 3 })
    const hour = labour.items.find((i: any) => i.sku === 'PLB-LAB-STANDARD')
    expect(hour.indicative_range).toMatchObject({ low: 80, high: 200, source: expect.stringContaining('whatsthedamage.com.au'), as_of: expect.stringMatching(/2025/) })
    expect(hour.price_source).toContain('whatsthedamage.com.au')
    const pipe = (await search(clientA, { query: 'copper pipe 15mm', limit: 1 })).items[0]
    expect(pipe.indicative_range).toBeNull()
    expect(pipe.price_source).toMatch(/No price/)
  })
})

const SUPPLIER_CSV = [
  'Item Code,Description,Unit,Cost Ex GST,Trade',
  'RC-CUE20,"Copper elbow 20mm, capillary",each,4.20,plumber', // line 2
  ',Copper tee 20mm,each,5.10,plumbing', // line 3: no item code
  'RC-HWS250,Hot water system electric 250L,each,"1,249.00",plumbing', // line 4
  'RC-BAD,Ball valve 20mm,each,abc,plumbing', // line 5: cost not a number
  'RC-PLV20,"Pressure limiting valve 20mm",each,62.35,plumbing', // line 6
  'RC-SHORT,Flexible hose 450mm,each', // line 7: too few fields
].join('\r\n')

describe('pricebook.import of a supplier price list', () => {
  it('three bad rows are reported by line with the reason; the good rows are kept and listed first in search', async () => {
    const result = await importList(clientA, { csv: SUPPLIER_CSV, supplier: 'Reece', columns: { cost: 'Cost Ex GST' }, default_markup_percent: 30 })
    expect(result).toMatchObject({ source: 'supplier_csv', supplier: 'Reece', created: 3, updated: 0, unchanged: 0, items_in_price_book: 3 })
    expect(result.rejected.map((r: any) => r.line)).toEqual([3, 5, 7])
    expect(result.rejected[0].reason).toMatch(/item code is empty/)
    expect(result.rejected[1]).toMatchObject({ item_code: 'RC-BAD', reason: expect.stringMatching(/cost "abc" is not an amount/) })
    expect(result.rejected[2].reason).toMatch(/has 3 fields where the header has 5/)
    expect(result.next_steps.map((s: any) => s.tool)).toContain('pricebook.import')

    const elbows = await search(clientA, { query: 'copper elbow 20mm', limit: 5 })
    expect(elbows.items[0]).toMatchObject({ source: 'company', sku: 'RC-CUE20', supplier: 'Reece', trade: 'plumbing', cost: 4.2, sell_price: 5.46, markup_percent: 30 })
    expect(elbows.items[0].price_source).toMatch(/Reece price list/)
    expect(elbows.items[1].source).toBe('catalogue')
    const hws = (await search(clientA, { query: 'hot water sytem', limit: 1 })).items[0]
    expect(hws).toMatchObject({ sku: 'RC-HWS250', cost: 1249, sell_price: withMarkup(124_900, 30) / 100 })
  })

  it('a second import updates by supplier and item code: counts unchanged, prices changed; an identical one changes nothing', async () => {
    const cheaper = SUPPLIER_CSV.replace('4.20', '3.90').replace('62.35', '59.99')
    const again = await importList(clientA, { csv: cheaper, supplier: 'Reece', columns: { cost: 'Cost Ex GST' } })
    expect(again).toMatchObject({ created: 0, updated: 2, unchanged: 1, items_in_price_book: 3 })
    const own = (await walk(clientA, { query: 'reece', limit: 100 })).items.filter((i) => i.source === 'company')
    expect(own.map((i) => i.sku).sort()).toEqual(['RC-CUE20', 'RC-HWS250', 'RC-PLV20'])
    // No markup given: each item kept its 30%, so its sell price follows the new cost.
    expect(own.find((i) => i.sku === 'RC-CUE20')).toMatchObject({ cost: 3.9, sell_price: withMarkup(390, 30) / 100, markup_percent: 30 })
    expect(own.find((i) => i.sku === 'RC-PLV20')).toMatchObject({ cost: 59.99, sell_price: withMarkup(5999, 30) / 100 })
    const same = await importList(clientA, { csv: cheaper, supplier: 'Reece', columns: { cost: 'Cost Ex GST' } })
    expect(same).toMatchObject({ created: 0, updated: 0, unchanged: 3, items_in_price_book: 3 })
  })

  it('GST-inclusive buy prices are stored ex GST; exclusive ones as given; sell = cost + markup, in cents', async () => {
    const csv = 'SKU,Name,Price\nTW-1,Tile adhesive flexible 20kg,29.51\nTW-2,Grout grey 5kg,0.11\nTW-3,Waterproofing membrane 15L,1000.01\n'
    const incl = await importList(clientA, { csv, supplier: 'Tile Wholesale', prices_include_gst: true, default_markup_percent: 32.5 })
    expect(incl).toMatchObject({ created: 3, rejected: [], prices_include_gst: true })
    const inclItems = (await walk(clientA, { query: 'tile wholesale', limit: 100 })).items.filter((i) => i.supplier === 'Tile Wholesale')
    for (const [code, given] of [['TW-1', 2951], ['TW-2', 11], ['TW-3', 100_001]] as const) {
      const item = inclItems.find((i) => i.sku === code)
      expect(item.cost, code).toBe(exGstCents(given) / 100)
      expect(item.sell_price, code).toBe(withMarkup(exGstCents(given), 32.5) / 100)
      expect(item.price_source).toMatch(/GST-inclusive/)
    }
    expect(inclItems.find((i) => i.sku === 'TW-1').cost).toBe(26.83) // 29.51 holds 2.68 GST

    const excl = await importList(clientA, { csv, supplier: 'Tile Wholesale', prices_include_gst: false })
    expect(excl).toMatchObject({ created: 0, updated: 3 })
    const exclItem = (await walk(clientA, { query: 'tile wholesale', limit: 100 })).items.find((i: any) => i.sku === 'TW-1')
    expect(exclItem).toMatchObject({ cost: 29.51, sell_price: withMarkup(2951, 32.5) / 100 })
  })

  it('refuses a call it cannot read, naming the field: no supplier, an unknown column, csv with catalogue ids', async () => {
    expect((await toolError(clientA, 'pricebook.import', { csv: SUPPLIER_CSV })).messages).toEqual([expect.stringMatching(/^supplier: /)])
    const unknown = await toolError(clientA, 'pricebook.import', { csv: SUPPLIER_CSV, supplier: 'Reece', columns: { cost: 'Nett' } })
    expect(unknown.messages[0]).toMatch(/^columns\.cost: the header has no column "Nett"/)
    const both = await toolError(clientA, 'pricebook.import', { csv: SUPPLIER_CSV, supplier: 'Reece', item_ids: ['PLB-HWE-250L'] })
    expect(both.error).toBe('validation_error')
    const noHeader = await toolError(clientA, 'pricebook.import', { csv: 'A,B\n1,2\n', supplier: 'X' })
    expect(noHeader.messages.join(' ')).toMatch(/columns\.item_code/)
  })

  it('reads what suppliers export: semicolons, quoted commas and line breaks; a broken quote keeps the rows before it', async () => {
    const semicolons = await importList(clientA, { csv: 'Code;Description;Price\r\nS1;"Hose, braided; 450mm";12.50\r\nS2;Tap washer;0.40\r\n', supplier: 'Semi Supplies' })
    expect(semicolons).toMatchObject({ created: 2, rejected: [] })
    const broken = 'Code,Description,Price\nQ1,"Multi-line\ndescription",5.00\nQ2,Fine,6.00\nQ3,"Broken "quote,3.00\nQ4,Never read,4.00\n'
    const result = await importList(clientA, { csv: broken, supplier: 'Quote Supplies' })
    expect(result).toMatchObject({ created: 2 })
    expect(result.rejected).toEqual([{ line: 5, item_code: null, reason: expect.stringMatching(/cannot be read from this row on .*Invalid Closing Quote/) }])
    const blank = await toolError(clientA, 'pricebook.import', { csv: broken, supplier: '   ' })
    expect(blank.messages).toEqual([expect.stringMatching(/^supplier: /)])
    const nothing = await toolError(clientA, 'pricebook.import', { trade: 'astronaut' })
    expect(nothing.messages).toEqual([expect.stringMatching(/^trade: no catalogue item matches/)])
  })

  it('copies catalogue items by id (an unknown id reported), then by trade, never twice', async () => {
    const byId = await importList(clientA, { item_ids: ['GAS-HWC-20LMIN-LPG', 'NOT-A-SKU'], default_markup_percent: 25 })
    expect(byId).toMatchObject({ source: 'catalogue', created: 1, prices_include_gst: null })
    expect(byId.rejected).toEqual([{ line: null, item_code: 'NOT-A-SKU', reason: expect.stringMatching(/no catalogue item/) }])
    const gas = await importList(clientA, { trade: 'gasfitter' })
    const gasCount = shipped.filter((i) => i.trade === 'gas').length
    expect(gas).toMatchObject({ created: gasCount - 1, unchanged: 1 })
    const first = (await search(clientA, { trade: 'gas', limit: 1 })).items[0]
    expect(first).toMatchObject({ source: 'company', supplier: 'catalogue', cost: null })
    const again = await importList(clientA, { trade: 'gas' })
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: gasCount })
  })
})

describe('tenancy', () => {
  it("company B never sees company A's items, and its own import of the same code is its own", async () => {
    const seen = await walk(clientB, { query: 'reece', limit: 100 })
    expect(seen.items.filter((i) => i.source === 'company')).toEqual([])
    const gas = await search(clientB, { trade: 'gas', limit: 100 })
    expect(gas.items.every((i: any) => i.source === 'catalogue')).toBe(true)
    const own = await importList(clientB, { csv: 'Code,Description,Cost\nRC-CUE20,Elbow,1.00\n', supplier: 'Reece' })
    expect(own).toMatchObject({ created: 1, updated: 0, items_in_price_book: 1 })
    const a = (await search(clientA, { query: 'RC-CUE20', limit: 1 })).items[0]
    expect(a).toMatchObject({ sku: 'RC-CUE20', cost: 3.9 })
  })
})
