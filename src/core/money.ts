import { AppError } from './errors.js'
// Money is stored as integer cents (AUD) and shown as dollars with two decimals.
export const CURRENCY = 'AUD' as const

export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100)
}

const AUD = new Intl.NumberFormat('en-AU', { style: 'currency', currency: CURRENCY })

/**
 * Dollars as a client reads them, the one spelling of every SMS, email, page, PDF and message:
 * "$1,234.50" (grouped thousands, two decimals, "-$5.00" below zero).
 */
export function formatDollars(dollars: number): string {
  return AUD.format(dollars)
}

/** Integer cents as a client reads them: formatDollars of the dollar amount. */
export function formatCents(cents: number): string {
  return formatDollars(centsToDollars(cents))
}

/**
 * Whether a number has at most `places` decimals. A float cannot hold most decimals exactly
 * (0.1 * 100 is 10.000000000000002), so it is compared with its rounding, within a millionth.
 */
export function hasAtMostDecimals(value: number, places: number): boolean {
  const scaled = value * 10 ** places
  return Math.abs(Math.round(scaled) - scaled) <= 1e-6
}

/** Dollars from an API caller (at most two decimals) as integer cents. */
export function parseDollars(dollars: number, field: string): number {
  if (!hasAtMostDecimals(dollars, 2)) {
    throw new AppError('validation_error', 'The request failed validation.', { messages: [`${field}: use at most two decimals (cents)`] })
  }
  return dollarsToCents(dollars)
}
