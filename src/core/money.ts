import { AppError } from './errors.js'
// Money is stored as integer cents (AUD) and shown as dollars with two decimals.
export const CURRENCY = 'AUD' as const

export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100)
}

/** Dollars from an API caller (at most two decimals) as integer cents. */
export function parseDollars(dollars: number, field: string): number {
  const cents = Math.round(dollars * 100)
  if (Math.abs(cents - dollars * 100) > 1e-6) {
    throw new AppError('validation_error', 'The request failed validation.', { messages: [`${field}: use at most two decimals (cents)`] })
  }
  return cents
}
