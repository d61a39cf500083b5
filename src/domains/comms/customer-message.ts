// The one shape of a message to a customer that carries the owner's note (quotes.send,
// payments.send_link, invoicing.send, jobs.send_eta): one greeting, the note as written, then
// what the message is about. An owner who starts the note with a greeting ("Hi Jane, ...",
// "G'day", "Thanks Jane") gets no second one in front of it. Amounts in `about` come from
// formatCents/formatDollars (core/money.ts); the caller puts the business name and link there.
import { escapeHtml } from '../../core/html-escape.js'

/** Openers that greet on their own, whoever they name. */
const GREETING = /^\s*(hi|hello|hey|hiya|howdy|g['’]?day|dear|greetings|good (morning|afternoon|evening|day))\b/i

/**
 * Whether the owner's note already greets the customer: it opens with a greeting word, or its
 * opening words ("Thanks Jane,", "Jane -") name the customer.
 */
export function noteGreets(note: string, firstName: string): boolean {
  if (GREETING.test(note)) return true
  const opening = note.trim().split(/[,.!?:;\n–—-]/)[0]!.trim().toLowerCase()
  const name = firstName.trim().toLowerCase()
  return name.length > 0 && opening.split(/\s+/).length <= 3 && opening.split(/\s+/).includes(name)
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** The customer's first name, as the greeting uses it. */
export const firstNameOf = (name: string) => name.trim().split(/\s+/)[0] || name

export interface CustomerMessage {
  firstName: string
  /** The owner's note, sent as written (trimmed); empty or absent means none. */
  note?: string | null
  /** What the message is about, as one sentence starting lower case where it continues "Hi Jane, ". */
  about: string
}

function parts(m: CustomerMessage): { greeting: string | null; note: string | null } {
  const note = m.note?.trim() || null
  return { greeting: note && noteGreets(note, m.firstName) ? null : `Hi ${m.firstName},`, note }
}

/** The SMS: "Hi Jane, <about>", or the greeting, the note and <about> on lines of their own. */
export function customerSms(m: CustomerMessage): string {
  const { greeting, note } = parts(m)
  if (!note) return `${greeting} ${m.about}`
  return [greeting, note, capitalise(m.about)].filter(Boolean).join('\n')
}

/**
 * The email's plain text and HTML, paragraph for paragraph the same: greeting, note, <about>
 * (`aboutHtml`, already escaped, may hold the link as an anchor), and the business signing off.
 */
export function customerEmail(m: CustomerMessage & { aboutHtml: string; signOff: string }): { text: string; html: string } {
  const { greeting, note } = parts(m)
  const text = [greeting, note, capitalise(m.about), m.signOff].filter(Boolean).join('\n\n')
  const html = [greeting && escapeHtml(greeting), note && escapeHtml(note).replace(/\n/g, '<br>'), capitalise(m.aboutHtml), escapeHtml(m.signOff)]
    .filter(Boolean).map((p) => `<p>${p}</p>`).join('')
  return { text, html }
}
