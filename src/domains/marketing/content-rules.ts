// The rules every draft meets, whoever wrote it. A model's draft that gates reviews, asks for a review
// to be removed, invents an incentive or a figure is refused (the local default then answers); the
// Spam Act lines (who sent it, how to opt out) are added here to every SMS and email draft, so no
// draft can leave without them.
import type { Static } from 'typebox'
import { identification, marketingSms, SMS_OPT_OUT_TEXT, type Sender } from '../comms/spam-act.js'
import { inventedFigure } from '../../providers/llm/figure-check.js'
import { ACCC_INCENTIVES, ACCC_NO_GATING, reviewGating, SPAM_ACT_CONSENT, SPAM_ACT_SENDER, SPAM_ACT_UNSUBSCRIBE } from './rules.js'
import type { ContentResponse, ContentType, Draft } from './schema.js'

type DraftValue = Static<typeof Draft>
type FinalDraft = Static<typeof ContentResponse>['drafts'][number]

export const SMS_TYPES: ReadonlySet<ContentType> = new Set(['sms_promo', 'review_request'])
export const EMAIL_TYPES: ReadonlySet<ContentType> = new Set(['email_newsletter'])

export const EMAIL_UNSUBSCRIBE_LINE = 'Don\'t want these emails? Unsubscribe: {unsubscribe_link}'

const SUPPRESSION = /\b(remove|delete|take down|change|edit|update|amend)\b[^.]{0,40}\breview\b|\breview\b[^.]{0,40}\b(removed|deleted|taken down|changed)\b/i
const INCENTIVE_WORDS = /\b(voucher|discount|prize|draw|gift ?card|giveaway|% off|free)\b/i

/** Why a draft breaks the rules, or null. `allowed`: the figures the request gave; `phones`: the business's numbers. */
export function draftProblem(type: ContentType, draft: DraftValue, incentive: string | undefined, allowed: number[], phones: string[]): string | null {
  const text = `${draft.subject ?? ''}\n${draft.body}`
  if (EMAIL_TYPES.has(type) && !draft.subject?.trim()) return 'an email draft needs a subject'
  const gating = reviewGating(text)
  if (gating) return gating
  if (type === 'review_reply' && SUPPRESSION.test(text)) return 'it asks for the review to be changed or removed (suppressing reviews, ACCC)'
  if (type === 'review_request' && !incentive && INCENTIVE_WORDS.test(text)) return 'it mentions an incentive that was not given (incentives must be real and disclosed, ACCC)'
  return inventedFigure([text], allowed, phones)
}

const withoutOptOut = (body: string) => body.replace(new RegExp(`\\s*-?\\s*${SMS_OPT_OUT_TEXT}\\.?\\s*$`, 'i'), '').trimEnd()

/** The draft as it would reach the recipient, with the lines the rules need, and which rules applied. */
export function finalDraft(type: ContentType, draft: DraftValue, sender: Sender, incentive: string | undefined): FinalDraft {
  let copy = draft.body.trim()
  const checks = [`${ACCC_NO_GATING.rule} Checked: no selective asking or steering of ratings.`]
  if (type === 'review_reply') checks.push('Checked: the reply does not ask for the review to be changed or removed and offers nothing for it (ACCC).')
  if (type === 'review_request' && incentive) {
    if (!copy.toLowerCase().includes(incentive.trim().toLowerCase())) {
      copy = `${copy} As a thank-you, everyone who leaves a review gets ${incentive.trim().replace(/\.$/, '')}, whatever the review says.`
    }
    checks.push(`${ACCC_INCENTIVES.rule} Disclosed: "${incentive.trim()}".`)
  }
  let body = copy
  let sms: number | null = null
  if (SMS_TYPES.has(type)) {
    copy = withoutOptOut(copy)
    body = marketingSms(copy, sender)
    sms = smsSegments(body)
    checks.push(`${SPAM_ACT_SENDER.rule} Added: "${identification(sender)}".`, `${SPAM_ACT_UNSUBSCRIBE.rule} Added: "${SMS_OPT_OUT_TEXT}" (comms honours STOP replies).`, SPAM_ACT_CONSENT.rule)
  } else if (EMAIL_TYPES.has(type)) {
    body = `${copy}\n\n--\nThis message is from ${identification(sender)}.\n${EMAIL_UNSUBSCRIBE_LINE}`
    checks.push(`${SPAM_ACT_SENDER.rule} Added: "${identification(sender)}".`,
      `${SPAM_ACT_UNSUBSCRIBE.rule} Added: an unsubscribe line; comms.send_email with message_type marketing puts the working link in its place.`, SPAM_ACT_CONSENT.rule)
  }
  return { subject: EMAIL_TYPES.has(type) ? draft.subject : null, copy, body, characters: [...body].length, sms_segments: sms, checks }
}

/** GSM-7 text: 160 characters in one segment, 153 each when split; other text (UCS-2): 70 and 67. */
function smsSegments(body: string): number {
  const length = [...body].length
  const gsm = /^[\n\r\x20-\x7E£¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉÄÖÑÜ§¿äöñüà]*$/.test(body)
  const [single, multi] = gsm ? [160, 153] : [70, 67]
  return length <= single ? 1 : Math.ceil(length / multi)
}
