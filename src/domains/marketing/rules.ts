// The public rules and facts marketing advice and copy rely on, each with its source and the date it
// was taken from the project's AU reference sheet (compiled from public sources, 2026). No market
// figure (cost per lead, conversion rate, ad price) is held: none has a dated source, so none is shown.
import type { Static } from 'typebox'
import type { SourcedRule } from './schema.js'

type Rule = Static<typeof SourcedRule>

const SHEET = 'project AU trade reference sheet, 2026-11'

export const SPAM_ACT_CONSENT: Rule = {
  rule: 'Commercial SMS and email go only to people who consented (asked, or an existing customer relationship) (Spam Act 2003 s 16).',
  source: 'Spam Act 2003 (Cth) s 16', as_of: SHEET,
}
export const SPAM_ACT_SENDER: Rule = {
  rule: 'Every commercial SMS and email clearly identifies the business that sent it and how to contact it (Spam Act 2003 s 17).',
  source: 'Spam Act 2003 (Cth) s 17', as_of: SHEET,
}
export const SPAM_ACT_UNSUBSCRIBE: Rule = {
  rule: 'Every commercial SMS and email carries a functional way to unsubscribe, which is honoured (Spam Act 2003 s 18).',
  source: 'Spam Act 2003 (Cth) s 18', as_of: SHEET,
}
export const ACCC_NO_GATING: Rule = {
  rule: 'Reviews are asked of every customer, whatever their experience: no review gating (asking only happy customers), no suppressing or faking reviews.',
  source: 'ACCC guidance on online reviews, as summarised by the linkai guide (3rd-party); check accc.gov.au', as_of: SHEET,
}
export const ACCC_INCENTIVES: Rule = {
  rule: 'An incentive for a review is disclosed and given for any review, positive or negative.',
  source: 'ACCC guidance on online reviews, as summarised by the linkai guide (3rd-party); check accc.gov.au', as_of: SHEET,
}
export const REVIEW_PLATFORMS: Rule = {
  rule: 'Review platforms used in Australia: Google Business Profile, Facebook, hipages, ProductReview.com.au, Trustpilot, Yelp, TrueLocal, ServiceSeeking (its own reviews).',
  source: 'starworks.com.au 2026 guide (3rd-party); ServiceSeeking help centre', as_of: SHEET,
}

/** Phrases that ask only satisfied customers for a review, or steer the rating: review gating. */
const GATING = [
  /\bif you (were|are) (happy|satisfied|pleased)\b/i,
  /\bonly if\b.*\b(happy|satisfied)\b/i,
  /\bhappy customers?\b.*\breview\b/i,
  /\b(leave|give) us (a )?(5|five)[- ]stars?\b/i,
  /\bnot (happy|satisfied)\b.*\b(call|contact|tell) us (first|directly|instead)\b/i,
  /\bbefore (leaving|posting) (a )?review\b/i,
]

/** Why the text gates or steers reviews, or null. */
export function reviewGating(text: string): string | null {
  const hit = GATING.find((re) => re.test(text))
  return hit ? `it asks for reviews selectively or steers the rating ("${text.match(hit)![0]}"), which is review gating (ACCC)` : null
}
