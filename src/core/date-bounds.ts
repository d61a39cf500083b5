// The range of every date and date-time the API accepts. The code after validation adds days,
// months and time zones to these values and stores them in Postgres: a year 0000 or 9999 leaves
// the range of that arithmetic (a follow-up two weeks after 9999-12-31 is no date at all). The
// check is on the `date` and `date-time` formats themselves (validation.ts installs it), so every
// field built on them, in every operation, has the same range. docs/decisions.md says why these years.
import { Format } from 'typebox/format'

export const EARLIEST_DATE = '2000-01-01'
export const LATEST_DATE = '2099-12-31'

/** What a refused date is told, after its field name. */
export const DATE_RANGE_MESSAGE = `must be a date (YYYY-MM-DD) from ${EARLIEST_DATE} to ${LATEST_DATE}`
export const DATE_TIME_RANGE_MESSAGE = `must be an ISO 8601 date-time with a time zone, e.g. 2025-07-01T09:00:00+10:00, dated from ${EARLIEST_DATE} to ${LATEST_DATE}`

const inRange = (date: string) => date >= EARLIEST_DATE && date <= LATEST_DATE

/** A real calendar date (2023-02-29 is not) within the range. */
export function isBoundedDate(value: string): boolean {
  return Format.IsDate(value) && inRange(value)
}

/**
 * An RFC 3339 date-time within the range (its own calendar date, before any offset) that a JS Date
 * reads: RFC 9557 suffixes ("[Australia/Sydney]") and leap seconds are valid RFC text but not
 * instants Date or Postgres read the same way, so they are refused too.
 */
export function isBoundedDateTime(value: string): boolean {
  return Format.IsDateTime(value) && !value.includes('[') && inRange(value.slice(0, 10)) && Number.isFinite(Date.parse(value))
}

/** Replaces TypeBox's own checks for the two formats. Call before compiling any schema. */
export function installDateBounds(): void {
  Format.Set('date', isBoundedDate)
  Format.Set('date-time', isBoundedDateTime)
}
