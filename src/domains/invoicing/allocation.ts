// How a job's price is split across its invoices, in integer cents. The "basis" is what the client
// agreed to pay: the quote's lines (or the job's amount), each line carrying its share of the
// quote's GST, so the lines' GST adds up to the quote's GST exactly. Deposits and progress claims
// take parts of it; the final invoice bills the whole basis plus extras and nets off every earlier
// invoice, so the invoices of a job always add up to the quote (plus extras) to the cent, in total
// and in GST. Every split keeps what is left non-negative in both subtotal and GST, so no later
// invoice can go negative.
import { AppError } from '../../core/errors.js'
import { centsToDollars, formatCents } from '../../core/money.js'
import { gstOnCents, percentOfCents, roundHalfUp } from '../../core/gst.js'

export interface BasisLine {
  description: string
  quantity: number
  unitPriceCents: number
  /** ex GST */
  totalCents: number
  gstCents: number
  /** Position of the quote line (1-based); null for a job amount. */
  position: number | null
}

export interface Amounts {
  subtotalCents: number
  gstCents: number
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

/**
 * Gives each quote line its share of the quote's GST (largest remainder), so the shares add up to
 * the quote's GST exactly and each is within a cent of 10% of its line: each share is 10% of its
 * line rounded down or up, the largest remainders rounded up. That always fits, because the quote's
 * GST (10% of the subtotal, rounded) lies between those two sums; sharing it in proportion to the
 * lines instead can put a line 1.1 cents off. A GST outside that range (never expected) is shared
 * in proportion.
 */
export function basisFromQuote(lines: Omit<BasisLine, 'gstCents'>[], quoteGstCents: number): BasisLine[] {
  const subtotal = BigInt(sum(lines.map((l) => l.totalCents)))
  if (subtotal === 0n) return lines.map((l) => ({ ...l, gstCents: 0 }))
  const gst = BigInt(quoteGstCents)
  const roundedDown = lines.reduce((a, l) => a + BigInt(l.totalCents) / 10n, 0n)
  const byTenth = gst >= roundedDown && gst <= roundedDown + BigInt(lines.filter((l) => l.totalCents % 10 !== 0).length)
  const [numerator, denominator] = byTenth ? [1n, 10n] : [gst, subtotal]
  const shares = lines.map((l, i) => {
    const exact = BigInt(l.totalCents) * numerator
    return { i, floor: exact / denominator, remainder: exact % denominator }
  })
  let left = gst - shares.reduce((a, s) => a + s.floor, 0n)
  const order = [...shares].sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1))
  const extra = new Set<number>()
  for (const s of order) {
    if (left <= 0n) break
    extra.add(s.i)
    left--
  }
  return lines.map((l, i) => ({ ...l, gstCents: Number(shares[i]!.floor) + (extra.has(i) ? 1 : 0) }))
}

/** A job with no quote: its amount (incl. GST) is one line; GST is one eleventh, rounded half up. */
export function basisFromAmount(description: string, amountInclCents: number): BasisLine[] {
  const gst = Number(roundHalfUp(BigInt(amountInclCents), 11n))
  return [{ description, quantity: 1, unitPriceCents: amountInclCents - gst, totalCents: amountInclCents - gst, gstCents: gst, position: null }]
}

/** GST on an extra: the quote's own rule, 10% of its ex-GST total rounded half up. */
export const gstOn = gstOnCents

/** What has been invoiced against the basis so far (net of credit notes; void invoices excluded). */
export interface Invoiced extends Amounts {
  /** Sum of the percentages of earlier percentage claims (deposits included), for cumulative rounding. */
  percentClaimed: number
  /** Quote line positions already claimed line by line. */
  claimedPositions: Set<number>
}

export function basisTotals(basis: BasisLine[]): Amounts {
  return { subtotalCents: sum(basis.map((l) => l.totalCents)), gstCents: sum(basis.map((l) => l.gstCents)) }
}

const overClaim = (asked: number, left: number) =>
  new AppError('conflict', `That claim is for ${formatCents(asked)} but only ${formatCents(left)} incl. GST of the job is left to invoice; claim less, or invoice the rest with the final invoice once the job is complete.`, {
    requested: centsToDollars(asked), remaining: centsToDollars(left),
  })

/**
 * Splits an amount incl. GST into subtotal and GST so that, counting everything invoiced so far,
 * the running split follows the basis's own ratio, and neither the subtotal nor the GST left
 * to invoice ever goes below zero.
 */
function splitProportional(basis: Amounts, invoiced: Amounts, amountCents: number): Amounts {
  const total = basis.subtotalCents + basis.gstCents
  const subtotalLeft = basis.subtotalCents - invoiced.subtotalCents
  const gstLeft = basis.gstCents - invoiced.gstCents
  const cumulative = BigInt(invoiced.subtotalCents + invoiced.gstCents + amountCents)
  const target = Number(roundHalfUp(cumulative * BigInt(basis.subtotalCents), BigInt(total))) - invoiced.subtotalCents
  const subtotal = Math.min(Math.max(target, amountCents - gstLeft, 0), subtotalLeft, amountCents)
  return { subtotalCents: subtotal, gstCents: amountCents - subtotal }
}

function remaining(basis: Amounts, invoiced: Amounts): number {
  return basis.subtotalCents + basis.gstCents - invoiced.subtotalCents - invoiced.gstCents
}

/** A percentage of the basis total. Rounded cumulatively, so 50% + 50% is exactly 100% even for an odd number of cents. */
export function claimPercent(basis: BasisLine[], invoiced: Invoiced, percent: number): Amounts {
  const totals = basisTotals(basis)
  const total = totals.subtotalCents + totals.gstCents
  const amount = percentOfCents(total, invoiced.percentClaimed + percent) - percentOfCents(total, invoiced.percentClaimed)
  return claimAmount(basis, invoiced, amount)
}

/** A fixed amount incl. GST. */
export function claimAmount(basis: BasisLine[], invoiced: Invoiced, amountCents: number): Amounts {
  const totals = basisTotals(basis)
  const left = remaining(totals, invoiced)
  if (amountCents > left) throw overClaim(amountCents, left)
  if (amountCents <= 0) throw new AppError('validation_error', 'The claim comes to $0.00; claim a larger share.', { messages: ['progress_claim: comes to $0.00'] })
  return splitProportional(totals, invoiced, amountCents)
}

/** Chosen quote lines, each in full and at most once. */
export function claimLines(basis: BasisLine[], invoiced: Invoiced, positions: number[]): BasisLine[] {
  const problems: string[] = []
  const chosen: BasisLine[] = []
  for (const p of [...new Set(positions)]) {
    const line = basis.find((l) => l.position === p)
    if (!line) problems.push(`progress_claim.line_items: the quote has no line ${p} (it has lines 1 to ${basis.length})`)
    else if (invoiced.claimedPositions.has(p)) problems.push(`progress_claim.line_items: line ${p} was already claimed`)
    else chosen.push(line)
  }
  if (problems.length) throw new AppError('validation_error', 'The request failed validation.', { messages: problems })
  const totals = basisTotals(basis)
  const asked = basisTotals(chosen)
  const subtotalLeft = totals.subtotalCents - invoiced.subtotalCents
  const gstLeft = totals.gstCents - invoiced.gstCents
  if (asked.subtotalCents > subtotalLeft || asked.gstCents > gstLeft) throw overClaim(asked.subtotalCents + asked.gstCents, remaining(totals, invoiced))
  return chosen
}

export interface PriorInvoice extends Amounts {
  number: string
  kind: string
}

export interface FinalLine {
  description: string
  quantity: number
  unitPriceCents: number
  totalCents: number
  gstCents: number
  source: 'quote_line' | 'job_amount' | 'extra' | 'less_invoiced'
  sourcePosition: number | null
  sourceInvoiceNumber: string | null
}

export interface Extra {
  description: string
  quantity: number
  unitPriceCents: number
  totalCents: number
}

/** The final invoice: the whole basis and the extras, less every earlier invoice (net of credits). */
export function finalLines(basis: BasisLine[], extras: Extra[], prior: PriorInvoice[], fromQuote: boolean): FinalLine[] {
  const lines: FinalLine[] = basis.map((l) => ({
    description: l.description, quantity: l.quantity, unitPriceCents: l.unitPriceCents, totalCents: l.totalCents, gstCents: l.gstCents,
    source: fromQuote ? 'quote_line' : 'job_amount', sourcePosition: l.position, sourceInvoiceNumber: null,
  }))
  for (const e of extras) {
    lines.push({ ...e, gstCents: gstOn(e.totalCents), source: 'extra', sourcePosition: null, sourceInvoiceNumber: null })
  }
  for (const p of prior) {
    if (p.subtotalCents === 0 && p.gstCents === 0) continue
    const label = p.kind === 'deposit' ? 'deposit' : 'progress claim'
    lines.push({
      description: `Less ${label} ${p.number}`, quantity: 1, unitPriceCents: -p.subtotalCents, totalCents: -p.subtotalCents, gstCents: -p.gstCents,
      source: 'less_invoiced', sourcePosition: null, sourceInvoiceNumber: p.number,
    })
  }
  return lines
}
