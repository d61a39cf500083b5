// Local dates and times in a company's own time zone (companies.time_zone, one of Australia's
// IANA zones). Intl does the zone arithmetic, so daylight saving follows the tz database; no
// offsets are hard-coded.

/**
 * The zone used only where no company is known (platform-wide periods, a company row without a
 * zone). Everything local to a company reads companies.time_zone instead; migration 013 gives that
 * column the same default.
 */
export const DEFAULT_TIME_ZONE = 'Australia/Sydney'

export const AUSTRALIAN_TIME_ZONES = [
  DEFAULT_TIME_ZONE, 'Australia/Melbourne', 'Australia/Brisbane', 'Australia/Adelaide',
  'Australia/Darwin', 'Australia/Perth', 'Australia/Hobart', 'Australia/Lord_Howe',
  'Australia/Broken_Hill', 'Australia/Eucla', 'Antarctica/Macquarie',
] as const
export type AustralianTimeZone = (typeof AUSTRALIAN_TIME_ZONES)[number]

const formats = new Map<string, Intl.DateTimeFormat>()
function formatFor(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-AU', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    })
    formats.set(timeZone, f)
  }
  return f
}

interface Parts { year: number; month: number; day: number; hour: number; minute: number; second: number }

function partsIn(date: Date, timeZone: string): Parts {
  const out: Record<string, number> = {}
  for (const p of formatFor(timeZone).formatToParts(date)) if (p.type !== 'literal') out[p.type] = Number(p.value)
  return out as unknown as Parts
}

/** The zone's offset from UTC in milliseconds at an instant. */
export function offsetMs(date: Date, timeZone: string): number {
  const p = partsIn(date, timeZone)
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(date.getTime() / 1000) * 1000
}

/** The local calendar date (YYYY-MM-DD) in the zone at an instant. */
export function localDate(date: Date, timeZone: string): string {
  const p = partsIn(date, timeZone)
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`
}

/** The local wall-clock time in the zone at an instant, as YYYY-MM-DDTHH:mm:ss (no offset). */
export function localDateTime(date: Date, timeZone: string): string {
  const p = partsIn(date, timeZone)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${localDate(date, timeZone)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}`
}

/**
 * The instant at which the zone's clocks read a wall-clock time (YYYY-MM-DD or YYYY-MM-DDTHH:mm[:ss]).
 * In the hour skipped when clocks go forward the result lands just after the gap; in the repeated
 * hour when they go back it is the first of the two.
 */
export function zonedToInstant(local: string, timeZone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(local)
  if (!m) throw new RangeError(`not a local date or date-time: ${local}`)
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0))
  // The offsets a day either side bracket any daylight-saving change; keep the candidates whose
  // local reading is the wall time asked for. Two (the repeated hour): the earlier. None (the
  // skipped hour): read with the offset from before the change, which lands after the gap.
  const day = 86_400_000
  const before = wall - offsetMs(new Date(wall - day), timeZone)
  const after = wall - offsetMs(new Date(wall + day), timeZone)
  const reads = (t: number) => { const d = new Date(t); return Date.UTC(...wallParts(d, timeZone)) === wall }
  const valid = [before, after].filter(reads)
  return new Date(valid.length ? Math.min(...valid) : before)
}

function wallParts(date: Date, timeZone: string): [number, number, number, number, number, number] {
  const p = partsIn(date, timeZone)
  return [p.year, p.month - 1, p.day, p.hour, p.minute, p.second]
}

/** The instant local midnight begins on a local date in the zone. */
export function startOfLocalDay(date: string, timeZone: string): Date {
  return zonedToInstant(date, timeZone)
}

const longFormats = new Map<string, Intl.DateTimeFormat>()
/**
 * A date as people read it ("1 July 2025") for pages, PDFs and messages. A calendar date
 * (YYYY-MM-DD, e.g. a due date) is printed as written: it already is the company's local date. An
 * instant (a payment time) is printed as the date it was in the company's zone.
 */
export function longLocalDate(value: string | Date, timeZone: string): string {
  const calendarDate = typeof value === 'string' && value.length === 10
  const zone = calendarDate ? 'UTC' : timeZone
  let f = longFormats.get(zone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-AU', { dateStyle: 'long', timeZone: zone })
    longFormats.set(zone, f)
  }
  return f.format(calendarDate ? new Date(`${value}T00:00:00Z`) : new Date(value))
}

const timeFormats = new Map<string, Intl.DateTimeFormat>()
/** An instant's wall-clock time in the zone as people read it ("3:05 pm"), to go with longLocalDate. */
export function shortLocalTime(value: string | Date, timeZone: string): string {
  let f = timeFormats.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-AU', { hour: 'numeric', minute: '2-digit', timeZone })
    timeFormats.set(timeZone, f)
  }
  return f.format(new Date(value))
}
