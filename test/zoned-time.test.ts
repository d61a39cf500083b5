// Local times in Australian zones. Expected instants are worked out by hand from the published
// rules (NSW, SA, Lord Howe: daylight saving from 2 am standard time on the first Sunday in October
// to 3 am daylight time on the first Sunday in April; WA, Qld, NT: none), not from Intl.
import { describe, expect, it } from 'vitest'
import { localDate, localDateTime, offsetMs, startOfLocalDay, zonedToInstant } from '../src/core/zoned-time.js'

const HOUR = 3_600_000

describe('zoned time', () => {
  it('reads wall-clock times with each zone\'s standard and daylight offsets', () => {
    // 22 Nov 2026 is in daylight time for NSW (+11), SA (+10:30), Lord Howe (+11); Perth is +8, Brisbane +10, Darwin +9:30.
    const cases: [string, string][] = [
      ['Australia/Sydney', '2026-11-21T22:00:00.000Z'],
      ['Australia/Adelaide', '2026-11-21T22:30:00.000Z'],
      ['Australia/Lord_Howe', '2026-11-21T22:00:00.000Z'],
      ['Australia/Perth', '2026-11-22T01:00:00.000Z'],
      ['Australia/Brisbane', '2026-11-21T23:00:00.000Z'],
      ['Australia/Darwin', '2026-11-21T23:30:00.000Z'],
    ]
    for (const [zone, utc] of cases) {
      const instant = zonedToInstant('2026-11-22T09:00', zone)
      expect(instant.toISOString(), zone).toBe(utc)
      expect(localDateTime(instant, zone)).toBe('2026-11-22T09:00:00')
    }
    // Winter: Sydney +10, Lord Howe +10:30 (its daylight saving is only half an hour).
    expect(zonedToInstant('2026-06-15T09:00', 'Australia/Sydney').toISOString()).toBe('2026-06-14T23:00:00.000Z')
    expect(zonedToInstant('2026-06-15T09:00', 'Australia/Lord_Howe').toISOString()).toBe('2026-06-14T22:30:00.000Z')
    expect(offsetMs(new Date('2026-06-15T00:00:00Z'), 'Australia/Adelaide')).toBe(9.5 * HOUR)
  })

  it('puts a time in the skipped hour after the gap and the repeated hour at its first reading', () => {
    // Sunday 4 Oct 2026: Sydney clocks go from 02:00 to 03:00 (16:00Z on the 3rd).
    expect(zonedToInstant('2026-10-04T02:30', 'Australia/Sydney').toISOString()).toBe('2026-10-03T16:30:00.000Z')
    expect(localDateTime(new Date('2026-10-03T16:30:00Z'), 'Australia/Sydney')).toBe('2026-10-04T03:30:00')
    // Sunday 5 Apr 2026: 03:00 daylight time becomes 02:00 standard (16:00Z on the 4th); 02:30 happens at 15:30Z and 16:30Z.
    expect(zonedToInstant('2026-04-05T02:30', 'Australia/Sydney').toISOString()).toBe('2026-04-04T15:30:00.000Z')
  })

  it('gives local calendar dates and the start of a local day', () => {
    // 14:30Z is already the next day in Sydney (+11) but not in Perth (+8).
    const instant = new Date('2026-11-22T14:30:00Z')
    expect(localDate(instant, 'Australia/Sydney')).toBe('2026-11-23')
    expect(localDate(instant, 'Australia/Perth')).toBe('2026-11-22')
    expect(startOfLocalDay('2026-11-23', 'Australia/Sydney').toISOString()).toBe('2026-11-22T13:00:00.000Z')
    expect(startOfLocalDay('2026-11-23', 'Australia/Perth').toISOString()).toBe('2026-11-22T16:00:00.000Z')
  })

  it('refuses what is not a local date or date-time', () => {
    expect(() => zonedToInstant('tomorrow', 'Australia/Sydney')).toThrow(RangeError)
    expect(() => zonedToInstant('2026-11-22T09:00+10:00', 'Australia/Sydney')).toThrow(RangeError)
  })
})
