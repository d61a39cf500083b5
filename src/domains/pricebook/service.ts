// Price book: search (the company's own items first, then the shipped catalogue) and import (a
// supplier's CSV price list, or catalogue items copied in). Money is integer cents ex GST; a
// GST-inclusive buy price has its GST (one eleventh, core/gst.ts) taken out before it is stored.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { validationError } from '../../core/errors.js'
import { gstInInclusiveCents, percentOfCents } from '../../core/gst.js'
import { centsToDollars, hasAtMostDecimals } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { readPriceList, type RejectedRow } from './csv.js'
import { catalogueItems, countItems, currentMarkups, searchRows, upsertItems, type ItemValues, type SearchRow } from './queries.js'
import { rankedPageEnvelope, rankedPageFrom } from './ranked-page.js'
import type { ImportPricebookInput, SearchPricebookInput } from './schema.js'
import { normaliseTrade, TRADE_LIST } from './trades.js'

const CATALOGUE_SUPPLIER = 'catalogue'
/** The most catalogue items one call copies (a trade has about a hundred). */
const MAX_CATALOGUE_COPY = 1000

const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(cents))

function priceSource(row: SearchRow): string {
  if (row.tier === 1) {
    return row.range_source
      ? `No buy price: the shipped catalogue carries none. Indicative range ${row.range_text} (${row.range_basis}): ${row.range_source}, as of ${row.range_as_of}.`
      : 'No price: the shipped catalogue carries a figure only where a dated source supports it, and none does for this item. Import your supplier price list (pricebook.import csv) for buy prices.'
  }
  if (row.cost_cents === null) return `Copied from the shipped catalogue (no price). Import ${row.supplier === CATALOGUE_SUPPLIER ? 'a supplier price list' : 'the price list again'} for a buy price.`
  const gst = row.buy_price_gst === 'inclusive' ? 'given GST-inclusive; GST (one eleventh) taken out' : 'given ex GST'
  const updated = row.updated_at ? row.updated_at.toISOString().slice(0, 10) : 'unknown date'
  const sell = row.sell_price_cents === null
    ? 'no sell price: import with default_markup_percent to set one'
    : `sell price = cost + ${row.markup_percent}% markup`
  return `Cost from the ${row.supplier} price list you imported (last changed ${updated}; ${gst}); ${sell}.`
}

function presentItem(row: SearchRow) {
  const range = row.range_low_cents === null || row.range_high_cents === null ? null : {
    low: centsToDollars(row.range_low_cents),
    high: centsToDollars(row.range_high_cents),
    basis: row.range_basis ?? '',
    text: row.range_text ?? '',
    source: row.range_source ?? '',
    as_of: row.range_as_of ?? '',
  }
  return {
    id: row.id,
    source: row.tier === 0 ? 'company' as const : 'catalogue' as const,
    sku: row.code,
    supplier: row.supplier,
    description: row.description,
    unit: row.unit,
    trade: row.trade,
    category: row.category,
    subcategory: row.subcategory,
    cost: dollars(row.cost_cents),
    sell_price: dollars(row.sell_price_cents),
    markup_percent: row.markup_percent,
    indicative_range: range,
    price_source: priceSource(row),
    relevance_score: Math.round(row.relevance * 1000) / 1000,
  }
}

export async function searchPricebook(deps: Deps, principal: Principal, input: Static<typeof SearchPricebookInput>) {
  const page = rankedPageFrom(input)
  const filter = {
    query: input.query?.trim() || undefined,
    trade: input.trade === undefined ? undefined : normaliseTrade(input.trade),
    subcategory: input.subcategory?.trim() || undefined,
  }
  const { rows, total } = await withTenant(deps.db, principal.companyId, (tx) => searchRows(tx, filter, page))
  return { items: rows.map(presentItem), ...rankedPageEnvelope(rows.length, total, page) }
}

/** Sell price: cost plus the markup, rounded half up to the cent; none without both. */
const sellPrice = (costCents: number | null, markup: number | null) =>
  costCents === null || markup === null ? null : costCents + percentOfCents(costCents, markup)

function checkImportInput(input: Static<typeof ImportPricebookInput>) {
  const problems: string[] = []
  const fromCatalogue = input.item_ids !== undefined || input.trade !== undefined || input.subcategory !== undefined
  if (input.csv === undefined && !fromCatalogue) {
    problems.push('csv: give a supplier price list as csv (with supplier), or item_ids, trade or subcategory to copy catalogue items')
  }
  if (input.csv !== undefined && fromCatalogue) {
    problems.push('csv: give csv or catalogue items (item_ids, trade, subcategory), not both in one call')
  }
  if (input.csv !== undefined && !input.supplier?.trim()) problems.push('supplier: needed with csv, e.g. "Reece"; re-imports match items by supplier and item code')
  if (input.csv === undefined && (input.supplier !== undefined || input.columns !== undefined || input.prices_include_gst === true)) {
    problems.push('supplier: supplier, columns and prices_include_gst go with csv; catalogue items have no supplier prices')
  }
  if (input.supplier !== undefined && input.supplier.trim().toLowerCase() === CATALOGUE_SUPPLIER) {
    problems.push(`supplier: "${CATALOGUE_SUPPLIER}" is where copied catalogue items are filed; name the supplier whose price list this is`)
  }
  for (const field of ['trade', 'subcategory'] as const) {
    if (input[field] !== undefined && !input[field].trim()) problems.push(`${field}: is blank; give a ${field}, e.g. ${field === 'trade' ? 'plumbing' : 'hot water'}`)
  }
  if (input.default_markup_percent !== undefined && !hasAtMostDecimals(input.default_markup_percent, 2)) {
    problems.push('default_markup_percent: at most two decimals, e.g. 32.5')
  }
  if (problems.length) throw validationError(problems)
}

export async function importPricebook(deps: Deps, principal: Principal, input: Static<typeof ImportPricebookInput>) {
  checkImportInput(input)
  return input.csv !== undefined ? importCsv(deps, principal, input, input.csv) : importCatalogue(deps, principal, input)
}

async function importCsv(deps: Deps, principal: Principal, input: Static<typeof ImportPricebookInput>, csv: string) {
  const supplier = input.supplier!.trim()
  const includeGst = input.prices_include_gst ?? false
  const markup = input.default_markup_percent ?? null
  const { rows, rejected } = readPriceList(csv, input.columns ?? {})
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    // Left out, a re-imported item keeps the markup it had, so its sell price follows the new cost.
    const kept = markup === null ? await currentMarkups(tx, supplier, rows.map((r) => r.item_code)) : new Map<string, number | null>()
    const items: ItemValues[] = rows.map((row) => {
      const cost = includeGst ? row.cost_cents - gstInInclusiveCents(row.cost_cents) : row.cost_cents
      const itemMarkup = markup ?? kept.get(row.item_code) ?? null
      return {
        item_code: row.item_code, description: row.description, unit: row.unit,
        trade: row.trade === null ? null : normaliseTrade(row.trade), category: row.category, subcategory: row.subcategory,
        cost_cents: cost, sell_price_cents: sellPrice(cost, itemMarkup), markup_percent: itemMarkup,
        buy_price_gst: includeGst ? 'inclusive' : 'exclusive', catalogue_sku: null,
      }
    })
    const written = await upsertItems(tx, principal.companyId, supplier, items, now)
    return summary('supplier_csv', supplier, rows.length, written, rejected, markup, includeGst, await countItems(tx))
  })
}

async function importCatalogue(deps: Deps, principal: Principal, input: Static<typeof ImportPricebookInput>) {
  const markup = input.default_markup_percent ?? null
  const filter = {
    skus: input.item_ids,
    trade: input.trade === undefined ? undefined : normaliseTrade(input.trade),
    subcategory: input.subcategory?.trim(),
  }
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const found = await catalogueItems(tx, filter, MAX_CATALOGUE_COPY)
    if (!found.length && !input.item_ids) {
      throw validationError([`${input.trade !== undefined ? 'trade' : 'subcategory'}: no catalogue item matches; the catalogue's trades are ${TRADE_LIST} (pricebook.search lists subcategories)`])
    }
    const known = new Set(found.map((f) => f.sku))
    const rejected: RejectedRow[] = (input.item_ids ?? []).filter((id) => !known.has(id)).map((id) => ({
      line: null, item_code: id,
      reason: 'no catalogue item has this id (a SKU from pricebook.search with source "catalogue"), or it is outside the trade/subcategory given',
    }))
    const kept = markup === null ? await currentMarkups(tx, CATALOGUE_SUPPLIER, found.map((f) => f.sku)) : new Map<string, number | null>()
    const items: ItemValues[] = found.map((item) => ({
      item_code: item.sku, description: item.description, unit: item.unit, trade: item.trade, category: item.category,
      subcategory: item.subcategory, cost_cents: null, sell_price_cents: null,
      markup_percent: markup ?? kept.get(item.sku) ?? null, buy_price_gst: null, catalogue_sku: item.sku,
    }))
    const written = await upsertItems(tx, principal.companyId, CATALOGUE_SUPPLIER, items, now)
    return summary('catalogue', CATALOGUE_SUPPLIER, items.length, written, rejected, markup, null, await countItems(tx))
  })
}

function summary(
  source: 'supplier_csv' | 'catalogue', supplier: string, considered: number, written: { inserted: boolean }[],
  rejected: RejectedRow[], markup: number | null,
  includeGst: boolean | null, inPriceBook: number,
) {
  const created = written.filter((w) => w.inserted).length
  return {
    source, supplier, created, updated: written.length - created, unchanged: considered - written.length,
    rejected: [...rejected].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)),
    markup_percent: markup, prices_include_gst: includeGst, items_in_price_book: inPriceBook,
  }
}
