// Expands families.ts into the shipped catalogue and, run as a script, writes catalogue.json beside
// it: `npx tsx src/domains/pricebook/catalogue/generate.ts`. Deterministic (same lists, same file),
// so the test can check the committed file is what the lists say.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { FAMILIES, TRADES, type CatalogueTrade, type CatalogueUnit } from './families.js'
import { SOURCED_RANGES, type SourcedRange } from './sourced-ranges.js'

export interface CatalogueItem {
  sku: string
  description: string
  unit: CatalogueUnit
  trade: CatalogueTrade
  category: string
  subcategory: string
  indicative_range: SourcedRange | null
}

export const TRADE_CODES: Record<CatalogueTrade, string> = {
  plumbing: 'PLB', electrical: 'ELE', carpentry: 'CAR', hvac: 'HVC', roofing: 'ROF',
  painting: 'PNT', tiling: 'TIL', landscaping: 'LND', gas: 'GAS', drainage: 'DRN',
}

/** Every combination of one pick from each list, in order. */
function combinations(lists: string[][]): string[][] {
  return lists.reduce<string[][]>((acc, list) => acc.flatMap((picked) => list.map((v) => [...picked, v])), [[]])
}

const skuPart = (words: string) => words.toUpperCase().replace(/[^A-Z0-9.]/g, '').replace(/\./g, 'P')

export function buildCatalogue(): CatalogueItem[] {
  const items: CatalogueItem[] = []
  for (const trade of TRADES) {
    for (const family of FAMILIES[trade]) {
      for (const picks of combinations(family.variants)) {
        const sku = [TRADE_CODES[trade], family.code, ...picks.map(skuPart)].join('-')
        const shown = picks.filter((p) => p !== 'standard')
        items.push({
          sku,
          description: shown.length ? `${family.name}, ${shown.join(', ')}` : family.name,
          unit: family.unit,
          trade,
          category: family.category,
          subcategory: family.subcategory,
          indicative_range: SOURCED_RANGES[sku] ?? null,
        })
      }
    }
  }
  const skus = new Set(items.map((i) => i.sku))
  if (skus.size !== items.length) throw new Error('catalogue: two items share a SKU; give one family another code or variant word')
  for (const sku of Object.keys(SOURCED_RANGES)) {
    if (!skus.has(sku)) throw new Error(`catalogue: sourced range for ${sku}, which no family produces`)
  }
  return items
}

export const CATALOGUE_FILE = fileURLToPath(new URL('./catalogue.json', import.meta.url))

/** One item per line, so a change to the lists reads as a diff of the items it changed. */
export const catalogueJson = () => `{"items": [\n${buildCatalogue().map((i) => JSON.stringify(i)).join(',\n')}\n]}\n`

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CATALOGUE_FILE, catalogueJson())
  console.log(`wrote ${buildCatalogue().length} items to ${CATALOGUE_FILE}`)
}
