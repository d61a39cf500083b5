// The Spam Act 2003 in one place. A message type is either transactional (it answers something the
// client started: a quote, an invoice, an ETA, a reminder, a payment link, a notice the owner
// needs, anything the client asked for) or marketing (commercial electronic messages: promotions,
// review and referral requests, upsells, follow-ups). Every marketing message must identify the
// business and carry a working opt-out, and nothing marketing goes to an address that opted out.
// Every message goes through sendMessage, which asks this module; callers only choose a type.
import { formatAbn } from '../onboarding/abn.js'

/** The marketing message types. Any other type is transactional. */
export const MARKETING_MESSAGE_TYPES = ['marketing', 'review_request', 'referral', 'upsell', 'follow_up'] as const

const MARKETING: ReadonlySet<string> = new Set(MARKETING_MESSAGE_TYPES)

export function isMarketing(messageType: string): boolean {
  return MARKETING.has(messageType)
}

/** Twilio's standard opt-out and opt-in keywords (the whole message, any case, trimmed). */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'] as const

export function keywordOf(body: string): { action: 'opt_out' | 'opt_in'; keyword: string } | null {
  const word = body.trim().replace(/[.!]+$/, '').toUpperCase()
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return { action: 'opt_out', keyword: word }
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(word)) return { action: 'opt_in', keyword: word }
  return null
}

export interface Sender {
  businessName: string
  abn: string | null
}

/** "Sparky Bros Electrical (ABN 51 824 753 556)": who the message is from, as the Act requires. */
export function identification(sender: Sender): string {
  return sender.abn ? `${sender.businessName} (ABN ${formatAbn(sender.abn)})` : sender.businessName
}

export const SMS_OPT_OUT_TEXT = 'Reply STOP to opt out'

/** A marketing SMS: the text, then who sent it and how to stop. */
export function marketingSms(body: string, sender: Sender): string {
  return `${body.trimEnd()}\n- ${identification(sender)}. ${SMS_OPT_OUT_TEXT}`
}

/** The canonical address an opt-out is kept under: E.164 for SMS, lower case for email. */
export function optOutAddress(channel: 'sms' | 'email', address: string): string {
  return channel === 'email' ? address.trim().toLowerCase() : address.trim()
}
