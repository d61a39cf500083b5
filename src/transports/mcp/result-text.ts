// The text part of a successful tool result. structuredContent carries the data; a client that
// reads it (MCP 2025-06-18 on) gets a short summary as text instead of the same data a second time:
// what was done, the ids and the key figures. The whole JSON comes back as text when the client
// asks (tools/call _meta.full_text: true) or when it speaks an older revision, which has no
// structuredContent and reads the text only. Errors keep their {error, message} body as text.

/** The first revision with structuredContent: a client on it or later reads the data there. */
const STRUCTURED_SINCE = '2025-06-18'

/**
 * The whole JSON as text? Asked per call (_meta.full_text: true), or per connection (?full_text=true
 * or the Mcp-Full-Text header, for hosts that show the model only the text and set no _meta).
 */
export function wantsFullText(protocolVersion: string | undefined, meta: unknown, connection: boolean | undefined): boolean {
  if (connection || (meta as Record<string, unknown> | undefined)?.full_text === true) return true
  return !protocolVersion || protocolVersion < STRUCTURED_SINCE
}

const MAX_SUMMARY = 600
const HINT = 'All fields: structuredContent (as text: _meta.full_text=true or ?full_text=true).'
const MAX_VALUE = 100
const MAX_FIELDS_PER_OBJECT = 6
// A record's own fields that say what it is and where it stands: id, number, name, state, money, link.
const KEY_FIELD = /(^id$|number$|Number$|^name$|^title$|status$|^total$|^amount$|^balance$|^sent$|count$|^outcome$|url$|Url$)/
// Internal (Temporal workflow ids, long and rarely needed): left to structuredContent.
const SKIPPED = /^workflow_?[iI]d$/

type Scalar = string | number | boolean
const scalar = (v: unknown): v is Scalar => (typeof v === 'string' && v.length <= MAX_VALUE) || typeof v === 'number' || typeof v === 'boolean'

// What was done often sits in a short list: the channels a message went by, when follow-ups fire.
const shortList = (v: unknown): v is Scalar[] => Array.isArray(v) && v.length > 0 && v.length <= 5 && v.every(scalar)

function describeObject(value: Record<string, unknown>, shown: Set<Scalar>): string {
  const fields = Object.entries(value)
    .filter(([k, v]) => (scalar(v) && KEY_FIELD.test(k) && !SKIPPED.test(k) && !shown.has(v)) || shortList(v))
    .slice(0, MAX_FIELDS_PER_OBJECT)
  for (const [, v] of fields) if (scalar(v)) shown.add(v)
  return fields.map(([k, v]) => `${k}=${Array.isArray(v) ? `[${v.join(', ')}]` : String(v)}`).join(', ')
}

/** e.g. "Send a quote: done. quote: id=..., quoteNumber=Q-00001, status=Sent, total=1980; delivery: ..." */
export function summarize(title: string, output: unknown): string {
  const parts: string[] = []
  // A value already given (a URL both on the record and beside it) is not repeated.
  const shown = new Set<Scalar>()
  if (output && typeof output === 'object' && !Array.isArray(output)) {
    for (const [key, value] of Object.entries(output as Record<string, unknown>)) {
      if (SKIPPED.test(key) || key === 'next_steps') continue
      if (scalar(value)) {
        if (!shown.has(value)) parts.push(`${key}: ${String(value)}`)
        shown.add(value)
      } else if (Array.isArray(value)) parts.push(`${key}: ${value.length} item${value.length === 1 ? '' : 's'}`)
      else if (value && typeof value === 'object') {
        const inner = describeObject(value as Record<string, unknown>, shown)
        if (inner) parts.push(`${key}: ${inner}`)
      }
    }
  }
  const body = `${title}: done.${parts.length ? ` ${parts.join('; ')}.` : ''}`
  return `${body.length > MAX_SUMMARY ? `${body.slice(0, MAX_SUMMARY)}...` : body}${nextStepsText(output)} ${HINT}`
}

/** The next steps in full (each short, written to be read): what the caller most needs from the text. */
function nextStepsText(output: unknown): string {
  const list = (output as { next_steps?: { tool: string; why: string }[] } | null)?.next_steps
  return Array.isArray(list) && list.length ? ` Next: ${list.map((s) => `${s.tool} (${s.why})`).join('; ')}.` : ''
}
