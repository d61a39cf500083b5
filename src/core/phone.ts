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
