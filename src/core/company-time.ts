// The calling company's own zone and local date (companies.time_zone). "Today", due dates, quote
// validity and overdue are all local calendar dates of the company, never of a fixed zone.
import type postgres from 'postgres'
import { DEFAULT_TIME_ZONE, localDate } from './zoned-time.js'

/** The company's IANA zone (row level security leaves only the caller's company visible). */
export async function companyTimeZone(tx: postgres.TransactionSql): Promise<string> {
  const [row] = await tx<{ time_zone: string | null }[]>`select time_zone from companies`
  return row?.time_zone ?? DEFAULT_TIME_ZONE
}

/** The company's local date (YYYY-MM-DD) at `now`. */
export async function companyToday(tx: postgres.TransactionSql, now: Date): Promise<string> {
  return localDate(now, await companyTimeZone(tx))
}
