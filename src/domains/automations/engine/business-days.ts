// Business days for an Australian state or territory: not a Saturday or Sunday and not one of the
// state's public holidays (date-holidays, type 'public', which includes substitute days). Dates are
// local calendar dates (YYYY-MM-DD) in the company's time zone; the caller turns them into instants.
import { createRequire } from 'node:module'
import type Holidays from 'date-holidays'
import type { AU_STATES } from '../../shared-schema.js'

export type AuStateCode = (typeof AU_STATES)[number]

// Required on the first holiday lookup, not at start (date-holidays is large); a synchronous
// require (Node caches the module) keeps these functions synchronous for their callers. Its CJS
// build has the same data as the ESM one.
const require = createRequire(import.meta.url)
const loadHolidays = () => require('date-holidays') as typeof Holidays

const calendars = new Map<string, Holidays>()
const publicHolidayCache = new Map<string, Map<string, string>>()

/** The state's public holidays in a year: date -> name. */
function publicHolidays(state: AuStateCode, year: number): Map<string, string> {
  const key = `${state}:${year}`
  let days = publicHolidayCache.get(key)
  if (!days) {
    let calendar = calendars.get(state)
    if (!calendar) calendars.set(state, (calendar = new (loadHolidays())('AU', state)))
    days = new Map()
    for (const h of calendar.getHolidays(year)) if (h.type === 'public') days.set(h.date.slice(0, 10), h.name)
    publicHolidayCache.set(key, days)
  }
  return days
}

export function addCalendarDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** Why a date is not a business day (weekend or the holiday's name), or null when it is one. */
export function notBusinessDay(date: string, state: AuStateCode | null): string | null {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay()
  if (weekday === 0 || weekday === 6) return weekday === 0 ? 'Sunday' : 'Saturday'
  if (!state) return null
  const holiday = publicHolidays(state, Number(date.slice(0, 4))).get(date)
  return holiday ? `public holiday in ${state}: ${holiday}` : null
}

/**
 * The `count`-th business day after `date` (count 1: the next one), with the days skipped on the
 * way and why. Without a state only weekends are skipped.
 */
export function businessDayAfter(date: string, state: AuStateCode | null, count = 1): { date: string; skipped: { date: string; reason: string }[] } {
  const skipped: { date: string; reason: string }[] = []
  let day = date
  for (let found = 0; found < count;) {
    day = addCalendarDays(day, 1)
    const reason = notBusinessDay(day, state)
    if (reason) skipped.push({ date: day, reason })
    else found++
  }
  return { date: day, skipped }
}
