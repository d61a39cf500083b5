// Windows of time in the company's own zone (companies.time_zone). Dates are local calendar dates;
// each window is also given as instants, so queries compare timestamptz columns with a range the
// (company_id, time) indexes serve.
import { validationError } from '../../core/errors.js'
import { addDays } from '../../core/period.js'
import { localDate, startOfLocalDay } from '../../core/zoned-time.js'

// Kept importable from here: cashflow and the automations read the zone through this module.
export { companyTimeZone } from '../../core/company-time.js'

export interface LocalWindow {
  timeZone: string
  /** First local date of the window (inclusive). */
  from: string
  /** Last local date of the window (inclusive). */
  to: string
  /** Local midnight starting `from`. */
  start: Date
  /** Where the window ends (exclusive): local midnight after `to`, or now for a window ending today. */
  end: Date
}

/** The last `days` local days, today included, up to now. */
export function lookback(now: Date, days: number, timeZone: string): LocalWindow {
  const today = localDate(now, timeZone)
  const from = addDays(today, -(days - 1))
  return { timeZone, from, to: today, start: startOfLocalDay(from, timeZone), end: now }
}

export const CALENDAR_PERIODS = ['this_month', 'last_month', 'this_quarter', 'this_fy'] as const
export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number]

/**
 * A calendar period in the company's zone: this month or this quarter (calendar quarters, the BAS
 * quarters) from its first local day up to now; last month whole, to local midnight after its last
 * day; this financial year from 1 July (Australia's year runs July to June) up to now.
 */
export function calendarWindow(now: Date, period: CalendarPeriod, timeZone: string): LocalWindow {
  const today = localDate(now, timeZone)
  const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))]
  const first = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`
  if (period === 'last_month') {
    const from = month === 1 ? first(year - 1, 12) : first(year, month - 1)
    const next = first(year, month)
    return { timeZone, from, to: addDays(next, -1), start: startOfLocalDay(from, timeZone), end: startOfLocalDay(next, timeZone) }
  }
  const from = period === 'this_month' ? first(year, month)
    : period === 'this_quarter' ? first(year, month - ((month - 1) % 3))
    : month >= 7 ? first(year, 7) : first(year - 1, 7)
  return { timeZone, from, to: today, start: startOfLocalDay(from, timeZone), end: now }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
/** A real calendar date (2025-02-30 is not). */
export function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false
  const d = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value
}

/** from..to (inclusive local dates), checked: real dates, in order, at most maxDays long. */
export function dateRange(from: string, to: string, timeZone: string, maxDays: number): LocalWindow {
  const problems: string[] = []
  if (!isCalendarDate(from)) problems.push('from: must be a calendar date YYYY-MM-DD')
  if (!isCalendarDate(to)) problems.push('to: must be a calendar date YYYY-MM-DD')
  if (problems.length) throw validationError(problems)
  if (from > to) throw validationError(['from: must be on or before to'])
  if (from < '2000-01-01' || to > '2999-12-31') throw validationError(['from: dates must be between 2000-01-01 and 2999-12-31'])
  const span = daysBetween(from, to) + 1
  if (span > maxDays) throw validationError([`to: the window is ${span} days; at most ${maxDays} days at a time`])
  return { timeZone, from, to, start: startOfLocalDay(from, timeZone), end: startOfLocalDay(addDays(to, 1), timeZone) }
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

export const presentWindow = (w: LocalWindow) => ({
  from: w.from, to: w.to, time_zone: w.timeZone, start: w.start.toISOString(), end: w.end.toISOString(),
})
