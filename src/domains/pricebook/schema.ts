import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { closed, Id, Trade } from '../shared-schema.js'
import { COLUMN_FIELDS, MAX_CSV_ROWS } from './csv.js'
import { TRADE_LIST } from './trades.js'

/** Largest CSV text one call takes: under the 1 MB body limit with room for the rest of the call. */
export const MAX_CSV_CHARACTERS = 900_000

export const SearchPricebookInput = Type.Object(
  {
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Free text, typos tolerated, e.g. "20mm copper elbow" or "hot water sytem"' })),
    trade: Type.Optional(Trade(`Only items for this trade. The catalogue's trades: ${TRADE_LIST} (plumber, electrician, air conditioning, refrigeration and similar words are read as these)`)),
    subcategory: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only items in this subcategory (any case), e.g. hot water, cable, fittings' })),
    ...PagingInput,
  },
  closed,
)

// The sources do not state a GST basis; prices advertised to consumers in Australia include GST.
const RANGE_GST = 'AUD dollars, incl. GST as prices advertised to consumers are (the source does not say)'

const IndicativeRange = Type.Object({
  low: Type.Number({ description: `Low end as the source states it; ${RANGE_GST}` }),
  high: Type.Number({ description: `High end as the source states it; ${RANGE_GST}` }),
  basis: Type.String({ description: 'What the range is a range of, e.g. the hourly rate plumbers charge customers' }),
  text: Type.String({ description: 'The figure in the words of the source, e.g. "$80-$200 per hour"' }),
  source: Type.String({ description: 'Where the figure comes from' }),
  as_of: Type.String({ description: 'When the source says it applied, e.g. "2024-02" or "c. 2025"' }),
}, { description: 'A market range with its source and date, only where a dated source supports one' })

export const PricebookItemSchema = Type.Object({
  id: Type.String({ description: "A catalogue item's SKU, or the id of the company's own item (pass to pricebook.import item_ids)" }),
  source: StringEnum(['company', 'catalogue'] as const, { description: "company: the company's own price book (listed first); catalogue: the shipped catalogue" }),
  sku: Type.String({ description: "The supplier's item code, or the catalogue SKU" }),
  supplier: Nullable(Type.String({ description: 'Whose price list it came from; null for catalogue items' })),
  description: Type.String(),
  unit: Nullable(Type.String({ description: 'What one is: each, metre, length, roll, hour, ...' })),
  trade: Nullable(Type.String()),
  category: Nullable(Type.String()),
  subcategory: Nullable(Type.String()),
  cost: Nullable(Dollars('ex', { description: "Buy price per unit from the company's imported price list; null when there is none (the catalogue ships no buy prices)" })),
  sell_price: Nullable(Dollars('ex', { description: 'Selling price per unit: cost plus markup_percent; null without a cost or a markup' })),
  markup_percent: Nullable(Type.Number({ description: 'Markup on cost the sell price was computed with' })),
  indicative_range: Nullable(IndicativeRange),
  price_source: Type.String({ description: 'Where each figure of this item came from, or why it has none' }),
  relevance_score: Type.Number({ description: 'How well the item matches query (higher first within company items, then within the catalogue); 0 without a query' }),
})

export const SearchPricebookResponse = Type.Object({ items: Type.Array(PricebookItemSchema), ...PageFields })

const Column = (field: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: `Header of the column holding ${field}` }))

export const ImportPricebookInput = Type.Object(
  {
    csv: Type.Optional(Type.String({
      minLength: 1, maxLength: MAX_CSV_CHARACTERS,
      description: `A supplier price list as CSV text, header row first, at most ${MAX_CSV_ROWS} rows and ${MAX_CSV_CHARACTERS} characters. Needs supplier. Rows that cannot be read are reported by line and the rest imported; importing the same supplier again updates items by item code.`,
    })),
    supplier: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Whose price list csv is, e.g. "Reece"; items are matched by supplier and item code' })),
    columns: Type.Optional(Type.Object(
      Object.fromEntries(COLUMN_FIELDS.map((f) => [f, Column(f === 'cost' ? 'the buy price per unit' : f.replace('_', ' '))])),
      { ...closed, description: 'Which header names which field, when the guess from common header names (Item Code, SKU, Description, Cost, Price, Unit, ...) is wrong; item_code, description and cost are needed' },
    )),
    prices_include_gst: Type.Optional(Type.Boolean({ description: 'Default false; true when the csv buy prices include GST: one eleventh is taken out and cost stored ex GST' })),
    item_ids: Type.Optional(Type.Array(Id('Catalogue item id (SKU, see pricebook.search)'), { minItems: 1, maxItems: 1000, uniqueItems: true, description: 'Catalogue items to copy into the price book (see pricebook.search)' })),
    trade: Type.Optional(Trade('Copy every catalogue item of this trade')),
    subcategory: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Copy every catalogue item of this subcategory' })),
    default_markup_percent: Type.Optional(Type.Number({
      minimum: 0, maximum: 500,
      description: 'Markup on cost in percent (at most two decimals), e.g. 30: sell price = cost + markup. Left out, an item keeps the markup it had; a new one gets none and no sell price. (Plumbers\' parts markups of 20-40% are typical per whatsthedamage.com.au, c. 2025.)',
    })),
  },
  closed,
)

export const ImportPricebookResponse = Type.Object({
  source: StringEnum(['supplier_csv', 'catalogue'] as const, { description: 'What was imported: a supplier price list, or catalogue items' }),
  supplier: Type.String({ description: 'The supplier the items are filed under ("catalogue" for catalogue items)' }),
  created: Type.Integer({ description: 'Items new to the price book' }),
  updated: Type.Integer({ description: 'Items already there (same supplier and item code) whose details or prices changed' }),
  unchanged: Type.Integer({ description: 'Items already there exactly as imported' }),
  rejected: Type.Array(Type.Object({
    line: Nullable(Type.Integer({ description: 'Line of the CSV (the header is line 1); null for an item id' })),
    item_code: Nullable(Type.String()),
    reason: Type.String({ description: 'What is wrong and what to fix' }),
  }), { description: 'Rows or ids not imported, each with the reason; the others were imported' }),
  markup_percent: Nullable(Type.Number({ description: 'The markup applied; null when none was given' })),
  prices_include_gst: Nullable(Type.Boolean({ description: 'How the buy prices were read; null for catalogue items (they have none)' })),
  items_in_price_book: Type.Integer({ description: "Items in the company's price book now" }),
})
