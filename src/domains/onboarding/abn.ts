// Australian Business Number: 11 digits with a modulus-89 check (ABR's published algorithm).
const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]

export function normaliseAbn(value: string): string {
  return value.replace(/\s+/g, '')
}

/** `51824753556` or `51 824 753 556` -> `51 824 753 556`, as the ABR prints it; anything that is not 11 digits as given. */
export function formatAbn(abn: string): string {
  const digits = abn.replace(/\D/g, '')
  return digits.length === 11 ? digits.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4') : abn
}

export function isValidAbn(value: string): boolean {
  const abn = normaliseAbn(value)
  if (!/^\d{11}$/.test(abn)) return false
  const digits = [...abn].map(Number)
  digits[0] = digits[0]! - 1
  const sum = digits.reduce((acc, d, i) => acc + d * WEIGHTS[i]!, 0)
  return sum % 89 === 0
}
