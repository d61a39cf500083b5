// Price-book SQL. Every function takes the tenant transaction from withTenant(): RLS scopes
// company_pricebook_items to the company; pricebook_catalogue is shared and read-only to the app.
import type postgres from 'postgres'
import { cappedCount, limitOffset, whereAll, type Page } from '../../core/paging.js'

type Tx = postgres.TransactionSql

export interface SearchFilter {
  query?: string
  trade?: string
  subcategory?: string
}

export interface SearchRow {
  tier: number
  id: string
  code: string
  supplier: string | null
  description: string
  unit: string | null
  trade: string | null
  category: string | null
  subcategory: string | null
  cost_cents: number | null
  sell_price_cents: number | null
  markup_percent: number | null
  buy_price_gst: 'inclusive' | 'exclusive' | null
  range_low_cents: number | null
  range_high_cents: number | null
  range_basis: string | null
  range_text: string | null
  range_source: string | null
  range_as_of: string | null
  updated_at: Date | null
  relevance: number
}

/**
 * The filters and the relevance score for one table. Text matches by full text (stemmed words) or
 * by trigram word similarity (pg_trgm's <%, which the GIN trigram index serves), so a misspelt word
 * still finds its item.
 */
function matching(tx: Tx, filter: SearchFilter) {
  const q = filter.query?.toLowerCase()
  // Word by word as well as the phrase: "coper elbow 20mm" finds "Copper elbow 90 degree, 20mm"
  // (every word there, one misspelt) though the words between make the phrase a weak match.
  const words = q ? [...new Set(q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1))].slice(0, 12) : []
  const tsQuery = (text: string) => tx`websearch_to_tsquery('english', ${text})`
  const everyWord = words.length ? tx`(${words.map((w) => tx`${w} <% search_text`).reduce((all, c) => tx`${all} and ${c}`)})` : tx`false`
  const wordScore = words.length
    ? tx`coalesce((select avg(word_similarity(w, search_text)) + min(word_similarity(w, search_text)) from unnest(${words}::text[]) w), 0)`
    : tx`0`
  return {
    where: whereAll(tx, [
      q && tx`(${q} <% search_text or search_vector @@ ${tsQuery(q)} or ${everyWord})`,
      filter.trade && tx`trade = ${filter.trade}`,
      filter.subcategory && tx`lower(subcategory) = ${filter.subcategory.toLowerCase()}`,
    ]),
    // Relevance: phrase similarity + full-text rank + each word's (mean and weakest) similarity.
    score: q ? tx`(word_similarity(${q}, search_text) + ts_rank_cd(search_vector, ${tsQuery(q)}) + ${wordScore})::float8` : tx`0::float8`,
  }
}

/**
 * One page of matches, the company's own items first, then the catalogue; within each, most
 * relevant first, then by description. The count runs over the same filters, capped (cappedCount).
 */
export async function searchRows(tx: Tx, filter: SearchFilter, page: Page): Promise<{ rows: SearchRow[]; total: number }> {
  const own = matching(tx, filter)
  const shipped = matching(tx, filter)
  const ownRows = tx`
    select 0 as tier, id::text as id, item_code as code, supplier, description, unit, trade, category, subcategory,
      cost_cents, sell_price_cents, markup_percent::float8 as markup_percent, buy_price_gst,
      null::integer as range_low_cents, null::integer as range_high_cents, null as range_basis, null as range_text,
      null as range_source, null as range_as_of, updated_at, ${own.score} as relevance
    from company_pricebook_items ${own.where}`
  const catalogueRows = tx`
    select 1 as tier, sku as id, sku as code, null as supplier, description, unit, trade, category, subcategory,
      null::integer as cost_cents, null::integer as sell_price_cents, null::float8 as markup_percent, null as buy_price_gst,
      range_low_cents, range_high_cents, range_basis, range_text, range_source, range_as_of, null::timestamptz as updated_at,
      ${shipped.score} as relevance
    from pricebook_catalogue ${shipped.where}`
  const [rows, total] = await Promise.all([
    tx<SearchRow[]>`
      select * from (${ownRows} union all ${catalogueRows}) found
      order by tier, relevance desc, description, code ${limitOffset(tx, page)}`,
    cappedCount(tx, tx`from (select 1 from company_pricebook_items ${own.where} union all select 1 from pricebook_catalogue ${shipped.where}) found`),
  ])
  return { rows, total }
}

export interface ItemValues {
  item_code: string
  description: string
  unit: string | null
  trade: string | null
  category: string | null
  subcategory: string | null
  cost_cents: number | null
  sell_price_cents: number | null
  markup_percent: number | null
  buy_price_gst: 'inclusive' | 'exclusive' | null
  catalogue_sku: string | null
}

/** The markup each of these items of the supplier has now (codes absent: not in the price book). */
export async function currentMarkups(tx: Tx, supplier: string, codes: string[]): Promise<Map<string, number | null>> {
  const rows = await tx<{ item_code: string; markup_percent: number | null }[]>`
    select item_code, markup_percent::float8 as markup_percent from company_pricebook_items
    where supplier = ${supplier} and item_code = any(${codes})`
  return new Map(rows.map((r) => [r.item_code, r.markup_percent]))
}

/**
 * Inserts the items, or updates the ones the company has under the same supplier and item code;
 * an item already exactly so is left alone (and not returned). Returns the codes written, each
 * marked inserted or updated (xmax = 0 on a row this statement inserted).
 */
export async function upsertItems(tx: Tx, companyId: string, supplier: string, items: ItemValues[], at: Date): Promise<{ item_code: string; inserted: boolean }[]> {
  if (!items.length) return []
  return tx<{ item_code: string; inserted: boolean }[]>`
    insert into company_pricebook_items as item (company_id, supplier, item_code, description, unit, trade, category, subcategory,
      cost_cents, sell_price_cents, markup_percent, buy_price_gst, catalogue_sku, created_at, updated_at)
    select ${companyId}, ${supplier}, x.item_code, x.description, x.unit, x.trade, x.category, x.subcategory,
      x.cost_cents, x.sell_price_cents, x.markup_percent, x.buy_price_gst, x.catalogue_sku, ${at}, ${at}
    from jsonb_to_recordset(${tx.json(items as never)}::jsonb) as x(item_code text, description text, unit text, trade text,
      category text, subcategory text, cost_cents integer, sell_price_cents integer, markup_percent numeric, buy_price_gst text, catalogue_sku text)
    on conflict (company_id, supplier, item_code) do update set
      description = excluded.description, unit = excluded.unit, trade = excluded.trade, category = excluded.category,
      subcategory = excluded.subcategory, cost_cents = excluded.cost_cents, sell_price_cents = excluded.sell_price_cents,
      markup_percent = excluded.markup_percent, buy_price_gst = excluded.buy_price_gst, catalogue_sku = excluded.catalogue_sku,
      updated_at = excluded.updated_at
    where (item.description, item.unit, item.trade, item.category, item.subcategory, item.cost_cents, item.sell_price_cents,
           item.markup_percent, item.buy_price_gst, item.catalogue_sku)
      is distinct from (excluded.description, excluded.unit, excluded.trade, excluded.category, excluded.subcategory,
           excluded.cost_cents, excluded.sell_price_cents, excluded.markup_percent, excluded.buy_price_gst, excluded.catalogue_sku)
    returning item.item_code, (item.xmax = 0) as inserted`
}

export interface CatalogueRow {
  sku: string
  description: string
  unit: string
  trade: string
  category: string
  subcategory: string
}

/** Catalogue items by SKU, or every item of a trade and/or subcategory (at most `max`). */
export async function catalogueItems(tx: Tx, filter: { skus?: string[]; trade?: string; subcategory?: string }, max: number): Promise<CatalogueRow[]> {
  return tx<CatalogueRow[]>`
    select sku, description, unit, trade, category, subcategory from pricebook_catalogue
    ${whereAll(tx, [
      filter.skus && tx`sku = any(${filter.skus})`,
      filter.trade && tx`trade = ${filter.trade}`,
      filter.subcategory && tx`lower(subcategory) = ${filter.subcategory.toLowerCase()}`,
    ])}
    order by sku limit ${max}`
}

export async function countItems(tx: Tx): Promise<number> {
  const [row] = await tx<{ n: number }[]>`select count(*)::int as n from company_pricebook_items`
  return row!.n
}
