// Money is stored as integer cents (AUD) and shown as dollars with two decimals.
export const CURRENCY = 'AUD' as const

export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100
}

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100)
}
