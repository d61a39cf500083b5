// The trade kinds the setup tools know the licensing of (the reference sheet covers electrical,
// plumbing, building and refrigeration/air conditioning), and how free-text trades and skills map
// to them. Matching is by keyword so the same words always give the same answer.
export const TRADE_KINDS = ['electrical', 'plumbing', 'building', 'refrigeration'] as const
export type TradeKind = (typeof TRADE_KINDS)[number]

export const TRADE_LABEL: Record<TradeKind, string> = {
  electrical: 'Electrical',
  plumbing: 'Plumbing and gasfitting',
  building: 'Carpentry and building',
  refrigeration: 'Air conditioning and refrigeration',
}

/** Words (lower case, matched at the start of a word) that point to each kind in a trade, skill or preference. */
export const TRADE_WORDS: Record<TradeKind, string[]> = {
  electrical: ['electric', 'sparky', 'sparkie', 'solar', 'wiring', 'switchboard', 'data cabl', 'lighting', 'battery'],
  plumbing: ['plumb', 'gas', 'drain', 'hot water', 'pipe', 'pipes', 'sewer', 'backflow', 'bathroom'],
  building: ['carpent', 'build', 'joiner', 'brick', 'tiling', 'tiler', 'concret', 'renovat', 'roof', 'paint', 'plaster', 'framing', 'timber', 'deck', 'cabinet', 'woodwork'],
  refrigeration: ['refrig', 'air con', 'aircon', 'air-con', 'hvac', 'a/c', 'split system', 'ducted', 'cool room', 'heat pump'],
}

/** Qualifications and licences (lower case, substring) that count as held for each kind. */
export const QUALIFICATION_WORDS: Record<TradeKind, string[]> = {
  electrical: ['electrotechnology', 'electrical licence', 'electrical license', 'electrician licence', 'a-grade', 'a grade', 'rec ', 'electrical contractor', 'uee30820', 'uee30811'],
  plumbing: ['cert iii plumbing', 'certificate iii in plumbing', 'plumbing licence', 'plumbing license', 'gasfitting', 'gas fitting', 'cpc32420', 'drainer'],
  building: ['carpentry', 'cert iii carpentry', 'builder licence', 'builders licence', 'building licence', 'cpc30220', 'cert iv building', 'bricklaying', 'joinery'],
  refrigeration: ['arctick', 'refrigerant handling', 'refrigeration and air conditioning', 'refrigeration', 'uee32120'],
}

const hasWord = (text: string, word: string) => new RegExp(`(^|[^a-z])${word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`).test(text)

/** The kinds a free-text trade (or skill) names; empty when it names none of them. */
export function kindsOf(text: string): TradeKind[] {
  const t = text.toLowerCase()
  return TRADE_KINDS.filter((k) => TRADE_WORDS[k].some((w) => hasWord(t, w)))
}

/** Whether a qualification or licence, as written, is one for this kind. */
export function qualifiesFor(kind: TradeKind, qualification: string): boolean {
  const q = ` ${qualification.toLowerCase()} `
  return QUALIFICATION_WORDS[kind].some((w) => q.includes(w))
}
