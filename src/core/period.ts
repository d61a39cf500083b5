// Usage periods are calendar months in the platform's default zone: the plan's monthly allowances
// (messages, API calls) are counted on one calendar for every company, so the cached period below
// serves every request. Anything local to one company uses companies.time_zone (core/zoned-time.ts).
// The key is 'YYYY-MM'.
import { DEFAULT_TIME_ZONE } from './zoned-time.js'

const TIME_ZONE = DEFAULT_TIME_ZONE
const partsFormat = new Intl.DateTimeFormat('en-AU', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

function zonedParts(date: Date): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const out: Record<string, number> = {}
  for (const p of partsFormat.formatToParts(date)) if (p.type !== 'literal') out[p.type] = Number(p.value)
  return out as never
}

/** The zone's offset from UTC in milliseconds at the given instant. */
function offsetAt(date: Date): number {
  const p = zonedParts(date)
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return asUtc - Math.floor(date.getTime() / 1000) * 1000
}

/** The UTC instant of local midnight on the first of the given month (month is 1-based, may be 13). */
function startOfZonedMonth(year: number, month: number): Date {
  const guess = Date.UTC(year, month - 1, 1)
  // Two passes settle the offset even when the month starts near a daylight-saving change.
  let instant = guess - offsetAt(new Date(guess))
  instant = guess - offsetAt(new Date(instant))
  return new Date(instant)
}

export interface UsagePeriod {
  key: string
  start: Date
  end: Date
  timezone: string
}

// The current month's answer is reused until the clock leaves it (this runs on every request).
let lastPeriod: UsagePeriod | null = null

export function usagePeriod(now: Date): UsagePeriod {
  const t = now.getTime()
  if (lastPeriod && t >= lastPeriod.start.getTime() && t < lastPeriod.end.getTime()) return lastPeriod
  lastPeriod = computePeriod(now)
  return lastPeriod
}

function computePeriod(now: Date): UsagePeriod {
  const p = zonedParts(now)
  return {
    key: `${p.year}-${String(p.month).padStart(2, '0')}`,
    start: startOfZonedMonth(p.year, p.month),
    end: startOfZonedMonth(p.year, p.month + 1),
    timezone: TIME_ZONE,
  }
}

export function secondsUntil(later: Date, now: Date): number {
  return Math.max(1, Math.ceil((later.getTime() - now.getTime()) / 1000))
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}
