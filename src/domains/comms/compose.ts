// What a message looks like when it goes out: caller HTML sanitised, a plain-text part derived
// from the HTML, and for marketing messages the business's identification and the opt-out (the
// Spam Act rules live in spam-act.ts; this only renders them).
import type sanitizeHtml from 'sanitize-html'
import { escapeHtml } from '../../core/html-escape.js'
import { identification, isMarketing, marketingSms, type Sender } from './spam-act.js'
import { loadOnce } from '../../core/load-once.js'

// Loaded on the first email, not at start: both are large and most requests send none.
const loadSanitizer = loadOnce(() => import('sanitize-html'))
const loadHtmlToText = loadOnce(() => import('html-to-text'))

/**
 * A conservative allow-list for HTML a caller writes: text formatting, lists, links (http, https,
 * mailto, tel), simple tables and images by https URL. No script, style, form, iframe or event
 * attributes; everything else is dropped with its content kept as text.
 */
const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'hr', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'sub', 'sup', 'blockquote', 'pre', 'code',
    'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'span', 'div', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img'],
  allowedAttributes: { a: ['href', 'title'], img: ['src', 'alt', 'width', 'height'], td: ['colspan', 'rowspan'], th: ['colspan', 'rowspan'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
}

export async function sanitiseEmailHtml(html: string): Promise<string> {
  const { default: sanitizeHtml } = await loadSanitizer()
  return sanitizeHtml(html, ALLOWED)
}

/** The plain-text alternative of an HTML body: links kept as "text [url]", no images. */
export async function textFromHtml(html: string): Promise<string> {
  const { convert } = await loadHtmlToText()
  return convert(html, { wordwrap: 78, selectors: [{ selector: 'img', format: 'skip' }] }).trim()
}

export interface Composed {
  body: string
  text: string | null
}

/** The SMS or email as sent. unsubscribeUrl is the marketing email's /u/<token> page. */
export async function composeMessage(
  req: { channel: 'sms' | 'email'; messageType: string; body: string; text?: string },
  sender: Sender,
  unsubscribeUrl: string | null,
): Promise<Composed> {
  const marketing = isMarketing(req.messageType)
  if (req.channel === 'sms') return { body: marketing ? marketingSms(req.body, sender) : req.body, text: null }
  const text = req.text ?? await textFromHtml(req.body)
  if (!marketing || !unsubscribeUrl) return { body: req.body, text }
  const who = identification(sender)
  const footer = `<hr><p style="font-size:12px;color:#555">This message is from ${escapeHtml(who)}. ` +
    `Don't want these emails? <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a>.</p>`
  return {
    body: `${req.body}\n${footer}`,
    text: `${text}\n\n--\nThis message is from ${who}.\nDon't want these emails? Unsubscribe: ${unsubscribeUrl}`,
  }
}

/** RFC 2369 + RFC 8058 one-click unsubscribe headers for a marketing email. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
}
