// The SQL behind quotes.ai_price_suggestion: the company's past accepted quotes that match a job
// description, their lines, its own price-book items and services that match, and the shipped
// catalogue's sourced ranges. Every function takes the tenant transaction from withTenant().
//
// Matching: the description's stemmed words (english full-text lexemes, so "systems" is "system")
// each count as found in a text when the text has the lexeme, or when pg_trgm finds a word close to
// it (<%, word similarity 0.6: a misspelt "sytem" still counts). The caller ranks by how many of
// the words were found; nothing here decides what is "similar enough".
import type postgres from 'postgres'

type Tx = postgres.TransactionSql

export interface MatchedQuote {
  id: string
  quote_number: string
  accepted_at: Date | null
  suburb: string | null
  /** How many of the description's words the quote's lines, service type and message contain. */
  matched: number
  terms: number
}

/** Lexemes of the description, and a per-row count of those found in `doc` (a lower-case text column). */
const termsOf = (tx: Tx, text: string) => tx`
  select distinct lexeme from unnest(tsvector_to_array(to_tsvector('english', ${text}))) lexeme`
const foundIn = (tx: Tx, doc: postgres.PendingQuery<postgres.Row[]>) => tx`
  (select count(*) from terms t where t.lexeme = any(tsvector_to_array(to_tsvector('english', ${doc}))) or t.lexeme <% ${doc})::int`

/** Accepted quotes with at least one of the description's words, best matched and newest first. */
export async function acceptedQuotesMatching(tx: Tx, text: string, max: number): Promise<MatchedQuote[]> {
  return tx<MatchedQuote[]>`
    with terms as (${termsOf(tx, text)}),
    past as (
      select q.id, q.quote_number, q.accepted_at, l.suburb,
        lower(string_agg(li.description, ' ') || ' ' || coalesce(l.service_type, '') || ' ' || coalesce(l.message, '')) as doc
      from quotes q join leads l on l.id = q.lead_id join quote_line_items li on li.quote_id = q.id
      where q.status = 'Accepted'
      group by q.id, l.id
    ),
    scored as (select p.*, ${foundIn(tx, tx`p.doc`)} as matched, (select count(*) from terms)::int as terms from past p)
    select id::text, quote_number, accepted_at, suburb, matched, terms from scored
    where matched > 0
    order by matched desc, accepted_at desc nulls last, quote_number desc
    limit ${max}`
}

export interface PastLine {
  quote_id: string
  description: string
  quantity: number
  unit_price_cents: number
  service_id: string | null
}

export async function linesOfQuotes(tx: Tx, quoteIds: string[]): Promise<PastLine[]> {
  if (!quoteIds.length) return []
  return tx<PastLine[]>`
    select quote_id::text, description, quantity::float8 as quantity, unit_price_cents::float8 as unit_price_cents, service_id::text
    from quote_line_items where quote_id = any(${quoteIds}::uuid[]) order by quote_id, position`
}

export interface OwnItem {
  id: string
  supplier: string
  item_code: string
  description: string
  unit: string | null
  trade: string | null
  sell_price_cents: number | null
  cost_cents: number | null
  markup_percent: number | null
  updated_at: Date
  matched: number
  terms: number
}

/** The company's own price-book items with at least one of the description's words, best first. */
export async function ownItemsMatching(tx: Tx, text: string, max: number): Promise<OwnItem[]> {
  return tx<OwnItem[]>`
    with terms as (${termsOf(tx, text)}),
    scored as (select i.*, ${foundIn(tx, tx`i.search_text`)} as matched, (select count(*) from terms)::int as terms from company_pricebook_items i)
    select id::text, supplier, item_code, description, unit, trade, sell_price_cents, cost_cents,
      markup_percent::float8 as markup_percent, updated_at, matched, terms
    from scored where matched > 0
    order by matched desc, description limit ${max}`
}

export interface OwnService {
  id: string
  name: string
  description: string | null
  unit: string
  unit_price_cents: number
}

/** Active services charged by the hour: the company's labour rate, a service named labour first. */
export async function hourlyServices(tx: Tx): Promise<OwnService[]> {
  return tx<OwnService[]>`
    select id::text, name, description, unit, unit_price_cents::float8 as unit_price_cents from services
    where active and lower(trim(unit)) in ('hour', 'hours', 'hr', 'hrs', 'per hour', 'hourly', 'hour(s)')
    order by (name ~* 'labou?r') desc, name limit 5`
}

/** Active services and own price-book items whose name or description matches the pattern (a POSIX regex). */
export async function chargesMatching(tx: Tx, pattern: string): Promise<{ kind: 'service' | 'price_book'; id: string; description: string; unit: string | null; price_cents: number }[]> {
  return tx`
    select 'service' as kind, id::text, name as description, unit, unit_price_cents::float8 as price_cents from services
    where active and (name ~* ${pattern} or coalesce(description, '') ~* ${pattern})
    union all
    select 'price_book', id::text, description, unit, sell_price_cents::float8 from company_pricebook_items
    where sell_price_cents is not null and description ~* ${pattern}
    order by 1 desc, 3 limit 5`
}

export async function companyTradeType(tx: Tx): Promise<string | null> {
  const [row] = await tx<{ trade_type: string | null }[]>`select trade_type from companies`
  return row?.trade_type ?? null
}

/** The catalogue trade whose items best match the description (null when none matches). */
export async function catalogueTradeMatching(tx: Tx, text: string): Promise<string | null> {
  const [row] = await tx<{ trade: string }[]>`
    with terms as (${termsOf(tx, text)})
    select trade from pricebook_catalogue c
    where search_vector @@ (select coalesce(string_agg(quote_literal(lexeme), ' | '), '')::tsquery from terms)
    group by trade order by count(*) desc, trade limit 1`
  return row?.trade ?? null
}

export interface SourcedRangeRow {
  sku: string
  description: string
  range_low_cents: number
  range_high_cents: number
  range_basis: string
  range_text: string
  range_source: string
  range_as_of: string
}

/** The catalogue's items of a trade that carry a dated, sourced range. */
export async function sourcedRangesOfTrade(tx: Tx, trade: string): Promise<SourcedRangeRow[]> {
  return tx<SourcedRangeRow[]>`
    select sku, description, range_low_cents, range_high_cents, range_basis, range_text, range_source, range_as_of
    from pricebook_catalogue where trade = ${trade} and range_source is not null order by sku`
}
