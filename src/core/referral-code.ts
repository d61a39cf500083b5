// Referral codes, in one format for both kinds: a client's code (workflows.referral_program, one per
// client of a company) and a company's own code (ecosystem.referral_link, one per company, unique
// across the service). Codes are read aloud and typed from an SMS, so the alphabet has no 0/O or
// 1/I/L, and what a person types is read back upper case with spaces and dashes dropped.
import { randomInt } from 'node:crypto'

export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

export function newReferralCode(length: number): string {
  let code = ''
  for (let i = 0; i < length; i++) code += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)]
  return code
}

/** " abcd-2345 " -> "ABCD2345": the form codes are stored in. */
export function normaliseReferralCode(raw: string): string {
  return raw.replace(/[\s-]+/g, '').toUpperCase()
}
