// The local default's copy: templates filled from the request and the company's profile. Offers and
// incentives are quoted as the caller typed them; nothing here invents a price or a discount.
import type { Static } from 'typebox'
import type { ContentInput, ContentType, Draft } from './schema.js'

type Input = Static<typeof ContentInput>
type DraftValue = Static<typeof Draft>

export interface ContentFacts {
  type: ContentType
  businessName: string
  trade: string
  phone: string | null
  input: Input
}

/** +61412345678 as an Australian writes it: 0412 345 678 (mobiles), 02 9876 5432 (landlines). */
export function displayPhone(e164: string): string {
  const national = e164.replace(/^\+61/, '0')
  if (!/^0\d{9}$/.test(national)) return e164
  return national.startsWith('04') ? `${national.slice(0, 4)} ${national.slice(4, 7)} ${national.slice(7)}` : `${national.slice(0, 2)} ${national.slice(2, 6)} ${national.slice(6)}`
}

const OPENERS: Record<string, string[]> = {
  friendly: ['Need a hand with', 'Looking for help with', 'Thinking about', 'Time to sort out', 'Got a problem with'],
  professional: ['Professional', 'Reliable', 'Licensed', 'Quality', 'Trusted'],
  urgent: ['Don\'t wait on', 'Act now on', 'Urgent help with', 'Fast help with', 'Same-week help with'],
  casual: ['Sorting out', 'Keen to fix', 'Chasing help with', 'Need someone for', 'After help with'],
}

const topicOf = (f: ContentFacts) => f.input.topic ?? f.input.service ?? `${f.trade} work`
const where = (f: ContentFacts) => (f.input.suburb ? ` in ${f.input.suburb}` : '')
const contact = (f: ContentFacts) => (f.phone ? `Call ${f.phone} to book.` : 'Get in touch to book.')
const offerLine = (f: ContentFacts) => (f.input.offer ? ` ${f.input.offer.trim().replace(/\.?$/, '.')}` : '')

function opener(f: ContentFacts, i: number): string {
  const list = OPENERS[f.input.tone ?? 'friendly']!
  const word = list[i % list.length]!
  return f.input.tone === 'professional' ? `${word} ${topicOf(f)}${where(f)}` : `${word} ${topicOf(f)}${where(f)}?`
}

const hashtag = (s: string) => {
  const word = s.replace(/[^A-Za-z0-9]/g, '')
  return word ? `#${word}` : ''
}

function reviewReply(f: ContentFacts, i: number): DraftValue {
  const name = f.input.reviewer_name ? ` ${f.input.reviewer_name}` : ''
  const reach = f.phone ? `please call us on ${f.phone}` : 'please get in touch'
  const unhappy = f.input.review_rating !== undefined && f.input.review_rating <= 3
  const lines = unhappy
    ? [`Hi${name}, thank you for taking the time to tell us about this, and we're sorry the job fell short.`,
      i % 2 === 0 ? `We'd like to understand what happened and put it right: ${reach} so we can talk it through.` : `Your feedback matters to us and we want to make it right; ${reach} at a time that suits you.`,
      `- ${f.businessName}`]
    : [`Thanks so much${name} for the review!`,
      i % 2 === 0 ? `We're glad the ${topicOf(f)} went well and we appreciate you choosing ${f.businessName}.` : `It was a pleasure looking after you, and thank you for choosing ${f.businessName}.`,
      'We\'re here whenever you need us again.']
  return { subject: null, body: lines.join(' ') }
}

export function templateDraft(f: ContentFacts, i: number): DraftValue {
  const topic = topicOf(f)
  switch (f.type) {
    case 'social_post':
      return { subject: null, body: `${opener(f, i)} ${f.businessName} can help.${offerLine(f)} ${contact(f)}\n${[hashtag(f.trade), hashtag(f.input.suburb ?? '')].filter(Boolean).join(' ')}` }
    case 'google_business_post':
      return { subject: null, body: `${opener(f, i)} ${f.businessName} does ${topic}${where(f)}, done properly and cleaned up after.${offerLine(f)} ${contact(f)}` }
    case 'email_newsletter':
      return {
        subject: `${topic[0]!.toUpperCase()}${topic.slice(1)}${where(f)} - ${f.businessName}`.slice(0, 200),
        body: `Hi there,\n\n${opener(f, i)} ${f.businessName} can take care of it.${offerLine(f)}\n\n${contact(f)} Reply to this email with any questions.\n\nThanks,\n${f.businessName}`,
      }
    case 'sms_promo':
      return { subject: null, body: `${f.businessName}: ${topic}${where(f)}.${offerLine(f)} ${contact(f)}` }
    case 'website_copy':
      return { subject: null, body: `${topic[0]!.toUpperCase()}${topic.slice(1)}${where(f)}\n\n${f.businessName} handles ${topic} for homes and businesses${where(f)}. We turn up when we say, explain the work before we start and leave the site clean.${offerLine(f)}\n\n${contact(f)}` }
    case 'ad_copy':
      return { subject: null, body: `Headline: ${topic}${where(f)}`.slice(0, 90) + `\nDescription: ${f.businessName}: ${f.trade} you can rely on.${offerLine(f)} ${contact(f)}` }
    case 'review_request':
      return {
        subject: null,
        body: i % 2 === 0
          ? `Hi, thanks for choosing ${f.businessName}. We'd value your honest review of the job, whatever your experience: {review_link}`
          : `Thanks for having ${f.businessName} out. Every review helps us improve, good or bad; you can leave yours here: {review_link}`,
      }
    case 'review_reply':
      return reviewReply(f, i)
  }
}
