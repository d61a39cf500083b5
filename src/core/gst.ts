// Quote and invoice arithmetic in integer cents. Unit prices are ex GST; each line total is
// quantity x unit price rounded half up to the cent; GST is 10% of the subtotal, rounded half up.
// BigInt keeps every step exact (quantities have up to three decimals).
import { hasAtMostDecimals } from './money.js'

export const GST_RATE_PERCENT = 10n

export interface LineInput {
  quantity: number
  unitPriceCents: number
}

export interface Totals {
  lineTotalsCents: number[]
  subtotalCents: number
  gstCents: number
  totalCents: number
}

/** Quantity in thousandths, exactly (rejecting more than three decimals). */
export function quantityMilli(quantity: number): bigint {
  if (!hasAtMostDecimals(quantity, 3)) throw new RangeError('quantity has more than three decimals')
  return BigInt(Math.round(quantity * 1000))
}

/** numerator / denominator rounded half up, exactly, for non-negative integers. */
export const roundHalfUp = (numerator: bigint, denominator: bigint) => (2n * numerator + denominator) / (2n * denominator)

/** GST on an ex-GST amount: 10%, rounded half up to the cent (a quote's subtotal, an invoice extra). */
export function gstOnCents(exGstCents: number): number {
  return Number(roundHalfUp(BigInt(exGstCents) * GST_RATE_PERCENT, 100n))
}

/**
 * The GST inside a GST-inclusive amount: one eleventh (10% on top of the ex-GST part), rounded
 * half up to the cent. $29.51 holds $2.68 (2951 / 11 = 268.27), leaving $26.83 ex GST.
 */
export function gstInInclusiveCents(inclGstCents: number): number {
  return Number(roundHalfUp(BigInt(inclGstCents), 11n))
}

/** A percentage (at most two decimals) of an amount in cents, rounded half up: deposits, claims, surcharges. */
export function percentOfCents(cents: number, percent: number): number {
  return Number(roundHalfUp(BigInt(cents) * BigInt(Math.round(percent * 100)), 10_000n))
}

export function lineTotalCents(line: LineInput): number {
  return Number(roundHalfUp(quantityMilli(line.quantity) * BigInt(line.unitPriceCents), 1000n))
}

/**
 * A priced line must come to at least a cent: 0.001 x $1.00 is a tenth of a cent, which rounds to
 * nothing, so a quote or extra of it would bill nothing while saying it bills something. The message
 * names the line (field) and what to do; null when the line is fine (a free line, price 0, is).
 */
export function belowOneCent(field: string, line: LineInput): string | null {
  if (line.unitPriceCents <= 0 || lineTotalCents(line) > 0) return null
  return `${field}: quantity x unitPrice comes to less than one cent (it would bill nothing); use a larger quantity or price, or 0 for a free line`
}

export function computeTotals(lines: LineInput[]): Totals {
  const lineTotalsCents = lines.map(lineTotalCents)
  const subtotal = lineTotalsCents.reduce((sum, c) => sum + BigInt(c), 0n)
  const gst = gstOnCents(Number(subtotal))
  return { lineTotalsCents, subtotalCents: Number(subtotal), gstCents: gst, totalCents: Number(subtotal) + gst }
}
