// Supplier, date, total including GST, the GST and the ABN as printed on a receipt, invoice or
// certificate. Amounts in integer cents like the rest of the project; dates in Australian order
// (day first); the ABN checked with the ABR's modulus-89 rule (onboarding/abn.ts).
import { isValidAbn } from '../onboarding/abn.js'

export interface ExtractedFields {
  supplier: string | null
  date: string | null
  total_cents: number | null
  gst_cents: number | null
  abn: string | null
  abn_valid: boolean | null
}

const AMOUNT = /\$?\s?(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})\b/g
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const HEADINGS = /^(tax invoice|invoice|receipt|tax receipt|certificate|statement|quote|page \d+)/i

const cents = (whole: string, part: string) => Number(whole.replace(/,/g, '')) * 100 + Number(part)
const amountsIn = (line: string) => [...line.matchAll(AMOUNT)].map((m) => cents(m[1]!, m[2]!))

function realDate(year: number, month: number, day: number): string | null {
  if (year < 100) year += 2000
  const d = new Date(Date.UTC(year, month - 1, day))
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || year < 1990 || year > 2100) return null
  return d.toISOString().slice(0, 10)
}

function dateIn(line: string): string | null {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(line)
  if (iso) return realDate(+iso[1]!, +iso[2]!, +iso[3]!)
  const au = /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})\b/.exec(line)
  if (au) return realDate(+au[3]!, +au[2]!, +au[1]!)
  const words = /\b(\d{1,2})(?:st|nd|rd|th)? ([A-Za-z]{3,9}),? (\d{4})\b/.exec(line)
  if (words) {
    const month = MONTHS.indexOf(words[2]!.slice(0, 3).toLowerCase())
    if (month >= 0) return realDate(+words[3]!, month + 1, +words[1]!)
  }
  return null
}

const isGstLine = (l: string) => /\bgst\b/i.test(l) && !/\b(inc|incl|including|ex|excl|excluding)\.?\s*gst\b/i.test(l)
const isTotalLine = (l: string) => /\b(total|amount due|balance due|amount paid)\b/i.test(l) && !/sub\s*-?\s*total/i.test(l) && !isGstLine(l)

function abnIn(text: string): { abn: string; valid: boolean } | null {
  const labelled = [...text.matchAll(/\bA\.?B\.?N\.?[:\s#]*((?:\d\s?){10}\d)/gi)].map((m) => m[1]!.replace(/\s/g, ''))
  const loose = [...text.matchAll(/\b(\d{2} \d{3} \d{3} \d{3})\b/g)].map((m) => m[1]!.replace(/\s/g, ''))
  const candidates = [...labelled, ...loose]
  if (candidates.length === 0) return null
  const valid = candidates.find(isValidAbn)
  return valid ? { abn: valid, valid: true } : { abn: candidates[0]!, valid: false }
}

function supplierIn(lines: string[]): string | null {
  for (const line of lines.slice(0, 8)) {
    const clean = line.replace(/\s+/g, ' ').trim()
    if (clean.length < 3 || !/[A-Za-z]{3}/.test(clean) || HEADINGS.test(clean) || /\bABN\b|\d{2}[/.-]\d{1,2}[/.-]\d{2}/i.test(clean)) continue
    return clean.replace(/^(from|supplier|issued by)[:\s]+/i, '').slice(0, 120)
  }
  return null
}

export function extractFields(text: string): ExtractedFields {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean)
  const totals = lines.filter(isTotalLine).flatMap(amountsIn)
  const gst = lines.filter(isGstLine).flatMap(amountsIn)
  const dateLine = lines.find((l) => /\bdate\b/i.test(l) && dateIn(l))
  const date = dateLine ? dateIn(dateLine) : lines.map(dateIn).find(Boolean) ?? null
  const abn = abnIn(text)
  return {
    supplier: supplierIn(lines),
    date,
    // The total including GST is the largest of the totals printed (a subtotal or a GST line is never larger).
    total_cents: totals.length ? Math.max(...totals) : null,
    gst_cents: gst.length ? gst[0]! : null,
    abn: abn?.abn ?? null,
    abn_valid: abn?.valid ?? null,
  }
}
