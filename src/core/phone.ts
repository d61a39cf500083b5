// Australian phone numbers: accept what people type ("0412 345 678", "+61 412 345 678"), store E.164.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max'

export function normaliseAuPhone(input: string): { e164: string; mobile: boolean } | null {
  const parsed = parsePhoneNumberFromString(input, 'AU')
  if (!parsed || !parsed.isValid()) return null
  const type = parsed.getType()
  return { e164: parsed.number, mobile: type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE' }
}

/** True for an Australian mobile in E.164 or local form, the only numbers an SMS can reach. */
export function isAuMobile(input: string): boolean {
  const n = normaliseAuPhone(input)
  return n !== null && n.mobile && n.e164.startsWith('+61')
}

/**
 * The rule for a phone a caller gives (a lead's, a company's): blank means none; anything else must
 * be an Australian number, kept as E.164. A refusal carries the validation message naming the field.
 */
export function readOptionalAuPhone(input: string | null | undefined): { e164: string | null } | { problem: string } {
  if (input === undefined || input === null || !input.trim()) return { e164: null }
  const parsed = normaliseAuPhone(input)
  return parsed ? { e164: parsed.e164 } : { problem: `phone: '${input}' is not a valid Australian phone number` }
}
