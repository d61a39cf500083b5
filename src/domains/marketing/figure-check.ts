// No invented figures: a model's text may use small whole numbers (days, weeks, counts) freely, but
// any dollar amount, percentage, decimal or larger number must be one the caller gave it (the
// company's own figures, the offer it typed, its phone number). Otherwise the answer is refused.

const round1 = (n: number) => Math.round(n * 10) / 10

/** Every number written in the texts, for the allowed list. */
export function numbersIn(...texts: (string | null | undefined)[]): number[] {
  return texts.flatMap((t) => t?.match(/\d[\d,]*(?:\.\d+)?/g)?.map((n) => Number(n.replace(/,/g, ''))) ?? [])
}

export function inventedFigure(texts: string[], allowed: number[]): string | null {
  const known = new Set(allowed.map(round1))
  for (const text of texts) {
    for (const match of text.matchAll(/(\$)?(\d[\d,]*(?:\.\d+)?)\s*(%|percent)?/g)) {
      const value = Number(match[2]!.replace(/,/g, ''))
      const plainSmall = !match[1] && !match[3] && Number.isInteger(value) && value < 100
      if (!plainSmall && !known.has(round1(value))) return `"${match[0].trim()}" is not a figure it was given`
    }
  }
  return null
}
