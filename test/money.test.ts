// The one money spelling clients read ("$1,234.50") and the one decimals rule for amounts callers send.
import { describe, expect, it } from 'vitest'
import { formatCents, formatDollars, hasAtMostDecimals, parseDollars } from '../src/core/money.js'

describe('money', () => {
  it('formats dollars and cents one way: grouped thousands, two decimals, minus before the sign', () => {
    expect(formatDollars(1234.5)).toBe('$1,234.50')
    expect(formatDollars(0)).toBe('$0.00')
    expect(formatDollars(1_000_000)).toBe('$1,000,000.00')
    expect(formatDollars(-5)).toBe('-$5.00')
    expect(formatCents(123_450)).toBe('$1,234.50')
    expect(formatCents(7)).toBe('$0.07')
  })

  it('counts decimals despite binary floats, and parses dollars to cents only with at most two', () => {
    expect(hasAtMostDecimals(0.1 + 0.2, 2)).toBe(true) // 0.30000000000000004
    expect(hasAtMostDecimals(19.99, 2)).toBe(true)
    expect(hasAtMostDecimals(19.999, 2)).toBe(false)
    expect(hasAtMostDecimals(1.125, 3)).toBe(true)
    expect(hasAtMostDecimals(1.1255, 3)).toBe(false)
    expect(parseDollars(1234.5, 'amount')).toBe(123_450)
    expect(parseDollars(0.29, 'amount')).toBe(29)
    expect(() => parseDollars(10.005, 'amount')).toThrow(expect.objectContaining({ code: 'validation_error' }))
  })
})
