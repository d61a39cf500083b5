// A supplier price list as CSV text -> rows to import and rows refused, each refusal with its line
// number and what to fix. Parsed by csv-parse (quoted fields, embedded commas and line breaks, a
// byte-order mark, CRLF or LF). A row that cannot be read is refused; the rows around it are kept.
// A quoting error stops the parser: the rows before it are kept and the rest is reported as unread.
import { parse, CsvError } from 'csv-parse/sync'
import { validationError } from '../../core/errors.js'

export const MAX_CSV_ROWS = 5000
/** A buy price above this is refused as a likely typo (a price list is parts, not houses). */
const MAX_COST_CENTS = 100_000_000

export const COLUMN_FIELDS = ['item_code', 'description', 'cost', 'unit', 'trade', 'category', 'subcategory'] as const
export type ColumnField = (typeof COLUMN_FIELDS)[number]
const REQUIRED: ColumnField[] = ['item_code', 'description', 'cost']

/** Header words suppliers' exports use for each field, lower case; the first match wins. */
const HEADER_GUESSES: Record<ColumnField, string[]> = {
  item_code: ['item_code', 'item code', 'code', 'sku', 'product code', 'part number', 'part no', 'item number', 'item no', 'item'],
  description: ['description', 'item description', 'product description', 'name', 'product name', 'product'],
  cost: ['cost', 'cost price', 'buy price', 'trade price', 'unit cost', 'unit price', 'price', 'nett price', 'net price'],
  unit: ['unit', 'uom', 'unit of measure', 'units'],
  trade: ['trade'],
  category: ['category', 'group', 'product group'],
  subcategory: ['subcategory', 'sub category', 'sub-category', 'subgroup'],
}

export interface PriceRow {
  line: number
  item_code: string
  description: string
  cost_cents: number
  unit: string | null
  trade: string | null
  category: string | null
  subcategory: string | null
}

export interface RejectedRow {
  /** Line of the CSV; null for a catalogue item id. */
  line: number | null
  item_code: string | null
  reason: string
}

/** A dollar amount as suppliers write it ("12.50", "$1,234.5", " 7 ") in cents, or a reason. */
function readCost(text: string): number | string {
  const plain = text.replace(/^\$/, '').replace(/,(?=\d{3}(\D|$))/g, '').trim()
  if (!plain) return 'cost is empty; give the buy price in dollars, e.g. 12.50'
  if (/^-/.test(plain)) return `cost "${text}" is negative; give the buy price in dollars, e.g. 12.50`
  if (!/^\d+(\.\d{1,2})?$/.test(plain)) return `cost "${text}" is not an amount in dollars with at most two decimals, e.g. 12.50`
  const [dollars, cents = ''] = plain.split('.')
  const total = Number(dollars) * 100 + Number(cents.padEnd(2, '0'))
  if (total > MAX_COST_CENTS) return `cost "${text}" is more than $${MAX_COST_CENTS / 100}; check the column mapping and the figure`
  return total
}

/** Which column index holds each field: the caller's mapping (header names) or a guess from the header. */
function mapColumns(header: string[], mapping: Partial<Record<ColumnField, string>>): Partial<Record<ColumnField, number>> {
  const lower = header.map((h) => h.trim().toLowerCase())
  const problems: string[] = []
  const found: Partial<Record<ColumnField, number>> = {}
  for (const field of COLUMN_FIELDS) {
    const named = mapping[field]
    if (named !== undefined) {
      const at = lower.indexOf(named.trim().toLowerCase())
      if (at < 0) problems.push(`columns.${field}: the header has no column "${named}"; its columns are ${header.map((h) => `"${h}"`).join(', ')}`)
      else found[field] = at
      continue
    }
    const at = HEADER_GUESSES[field].map((guess) => lower.indexOf(guess)).find((i) => i >= 0)
    if (at !== undefined) found[field] = at
    else if (REQUIRED.includes(field)) {
      problems.push(`columns.${field}: no column of the header (${header.map((h) => `"${h}"`).join(', ')}) reads as ${field}; name it in columns, e.g. {"${field}": "${header[0] ?? 'Column name'}"}`)
    }
  }
  if (problems.length) throw validationError(problems)
  return found
}

interface Parsed { records: { line: number; fields: string[] }[]; stoppedAt: { line: number; reason: string } | null }

/** The delimiter the header line uses most: comma, semicolon (some locales' exports) or tab. */
function delimiterOf(text: string): string {
  const end = text.search(/\r|\n/)
  const header = end < 0 ? text : text.slice(0, end)
  const count = (d: string) => header.split(d).length
  return [',', ';', '\t'].reduce((best, d) => (count(d) > count(best) ? d : best))
}

function readRecords(text: string): Parsed {
  const records: Parsed['records'] = []
  let stoppedAt: Parsed['stoppedAt'] = null
  let lastLine = 0
  try {
    parse(text, {
      bom: true,
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      on_record: (record: string[], context) => {
        // context.lines is the record's last line; a quoted field with line breaks started earlier.
        const inner = record.reduce((n, field) => n + (field.match(/\r\n|\n|\r/g)?.length ?? 0), 0)
        records.push({ line: context.lines - inner, fields: record })
        lastLine = context.lines
        if (records.length > MAX_CSV_ROWS + 1) throw validationError([`csv: more than ${MAX_CSV_ROWS} rows; split the price list and import each part`])
        return null
      },
    })
  } catch (error) {
    if (!(error instanceof CsvError)) throw error
    const at = (error as CsvError & { lines?: number }).lines
    stoppedAt = {
      line: lastLine + 1,
      reason: `the CSV cannot be read from this row on (${error.message.split(':')[0]}${at ? ` at line ${at}` : ''}); it and the rows after it were not imported: fix the quoting and import again`,
    }
  }
  return { records, stoppedAt }
}

export function readPriceList(text: string, mapping: Partial<Record<ColumnField, string>>): { rows: PriceRow[]; rejected: RejectedRow[] } {
  const { records, stoppedAt } = readRecords(text)
  const [header, ...data] = records
  if (!header) throw validationError(['csv: has no header row; the first line names the columns, e.g. "Item Code,Description,Cost"'])
  const at = mapColumns(header.fields, mapping)
  const rows: PriceRow[] = []
  const rejected: RejectedRow[] = []
  const seen = new Map<string, number>()
  const cell = (fields: string[], field: ColumnField) => {
    const i = at[field]
    return i === undefined ? '' : (fields[i] ?? '').trim()
  }
  for (const { line, fields } of data) {
    const code = cell(fields, 'item_code')
    const refuse = (reason: string) => rejected.push({ line, item_code: code || null, reason })
    if (fields.length !== header.fields.length) {
      refuse(`has ${fields.length} fields where the header has ${header.fields.length}; check for an unquoted comma`)
      continue
    }
    if (!code) { refuse('item code is empty'); continue }
    if (code.length > 100) { refuse('item code is longer than 100 characters'); continue }
    const description = cell(fields, 'description')
    if (!description) { refuse('description is empty'); continue }
    const cost = readCost(cell(fields, 'cost'))
    if (typeof cost === 'string') { refuse(cost); continue }
    const earlier = seen.get(code)
    if (earlier !== undefined) { refuse(`item code "${code}" is already on line ${earlier}; the first one was kept`); continue }
    seen.set(code, line)
    const optional = (field: ColumnField) => cell(fields, field).slice(0, 200) || null
    rows.push({
      line, item_code: code, description: description.slice(0, 500), cost_cents: cost,
      unit: optional('unit'), trade: optional('trade'), category: optional('category'), subcategory: optional('subcategory'),
    })
  }
  if (stoppedAt) rejected.push({ line: stoppedAt.line, item_code: null, reason: stoppedAt.reason })
  return { rows, rejected }
}
