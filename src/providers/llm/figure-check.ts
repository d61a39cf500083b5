// Shared by every caller of the language-model provider that must not let a model invent a figure
// (marketing, quotes.ai_price_suggestion).
// No invented figures: a model's text may use small whole numbers (days, weeks, counts) freely, but
// any dollar amount, percentage, decimal or larger number must be one the caller gave it (the
// company's own figures, the offer it typed, its phone number). Otherwise the answer is refused.

const round1 = (n: number) => Math.round(n * 10) / 10

/** Every number written in the texts, for the allowed list. */
export function numbersIn(...texts: (string | null | undefined)[]): number[] {
  return texts.flatMap((t) => t?.match(/\d[\d,]*(?:\.\d+)?/g)?.map((n) => Number(n.replace(/,/g, ''))) ?? [])
}

/** The digits of a phone number as an Australian reads them: +61 4.. becomes 04... */
export const phoneDigits = (phone: string) => phone.replace(/\D/g, '').replace(/^61/, '0')

/** `phones`: the business's own numbers, which the text may quote in any spacing. */
export function inventedFigure(texts: string[], allowed: number[], phones: string[] = []): string | null {
  // A figure may be quoted rounded to a whole number (33.3% as 33%).
  const known = new Set(allowed.flatMap((n) => [round1(n), Math.round(n)]))
  const ownPhones = new Set(phones.map(phoneDigits))
  for (const written of texts) {
    const text = written.replace(/\+?\d[\d\s()-]{6,}\d/g, (m) => (ownPhones.has(phoneDigits(m)) ? ' ' : m))
    for (const match of text.matchAll(/(\$)?(\d[\d,]*(?:\.\d+)?)\s*(%|percent)?/g)) {
      const value = Number(match[2]!.replace(/,/g, ''))
      const plainSmall = !match[1] && !match[3] && Number.isInteger(value) && value < 100
      if (!plainSmall && !known.has(round1(value))) return `"${match[0].trim()}" is not a figure it was given`
    }
  }
  return null
}
