// marketing.generate_content: drafts from the language model (or the local default's templates),
// held to the Spam Act and the ACCC's review rules (content-rules.ts), returned and never sent.
import Type, { type Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { validationError } from '../../core/errors.js'
import { generateMetered } from '../billing/llm-calls.js'
import { draftProblem, EMAIL_TYPES, finalDraft, SMS_TYPES } from './content-rules.js'
import { displayPhone, templateDraft, type ContentFacts } from './content-templates.js'
import { numbersIn } from '../../providers/llm/figure-check.js'
import { findMarketingCompany } from './queries.js'
import { ACCC_INCENTIVES, ACCC_NO_GATING, reviewGating, SPAM_ACT_CONSENT, SPAM_ACT_SENDER, SPAM_ACT_UNSUBSCRIBE } from './rules.js'
import { Draft, type ContentInput, type ContentResponse } from './schema.js'

const NOT_SENT = 'Drafts only: nothing was published or sent. To send an SMS or email draft, pass its copy to comms.send_sms or comms.send_email ' +
  'with message_type marketing (or review_request): they add the sender and opt-out lines, and skip anyone who opted out. Send only to people who agreed to hear from you.'

function rulesFor(type: ContentFacts['type']) {
  const spam = SMS_TYPES.has(type) || EMAIL_TYPES.has(type) ? [SPAM_ACT_CONSENT, SPAM_ACT_SENDER, SPAM_ACT_UNSUBSCRIBE] : []
  const reviews = type === 'review_request' ? [ACCC_NO_GATING, ACCC_INCENTIVES] : [ACCC_NO_GATING]
  return [...spam, ...reviews]
}

type Input = Static<typeof ContentInput>
const TEXT_FIELDS = ['topic', 'service', 'suburb', 'offer', 'incentive', 'review_text', 'reviewer_name'] as const

/** Blank text is no text; words that would make the draft gate reviews are refused, not written. */
function cleanInput(given: Input): Input {
  const input = { ...given }
  for (const field of TEXT_FIELDS) input[field] = input[field]?.trim() || undefined
  const problems = (['topic', 'service', 'offer', 'incentive'] as const)
    .map((field) => [field, input[field] ? reviewGating(input[field]) : null] as const)
    .filter(([, why]) => why !== null).map(([field, why]) => `${field}: ${why}`)
  if (problems.length) throw validationError(problems, 'The draft would break the ACCC\'s rules on reviews: reword the fields named so every client is asked, whatever their experience.')
  return input
}

export async function generateContent(deps: Deps, principal: Principal, given: Input): Promise<Static<typeof ContentResponse>> {
  const input = cleanInput(given)
  const company = await withTenant(deps.db, principal.companyId, findMarketingCompany)
  const type = input.content_type ?? 'social_post'
  const variants = input.variants ?? 1
  const facts: ContentFacts = { type, businessName: company.business_name, trade: company.trade_type ?? 'trade', phone: company.phone ? displayPhone(company.phone) : null, input }
  const allowed = numbersIn(input.topic, input.service, input.suburb, input.offer, input.incentive, input.review_text, input.reviewer_name, company.business_name, company.trade_type)
  const schema = Type.Object({ drafts: Type.Array(Draft, { minItems: variants, maxItems: variants }) }, { additionalProperties: false })

  const answer = await generateMetered(deps, principal.companyId, {
    purpose: 'marketing.generate_content',
    system: `You write ${type.replace(/_/g, ' ')} copy for an Australian trade business, ${variants} alternative draft(s), in a ${input.tone ?? 'friendly'} tone. ` +
      'Quote any offer or incentive exactly as given and invent none; use no price, percentage or figure that is not given. ' +
      'Reviews: ask every customer for an honest review whatever their experience; never ask only happy customers or ask for a rating; never ask for a review to be changed or removed. ' +
      'Leave out the sender and opt-out lines: they are added for you. Use {review_link} where a review link goes.',
    user: JSON.stringify({ business: company.business_name, trade: facts.trade, phone: facts.phone, ...input, content_type: type, variants }),
    schema,
    check: (value) => value.drafts.map((d) => draftProblem(type, d, input.incentive, allowed, company.phone ? [company.phone] : [])).find((p) => p !== null) ?? null,
    localAnswer: () => ({ drafts: Array.from({ length: variants }, (_, i) => templateDraft(facts, i)) }),
  })
  const sender = { businessName: company.business_name, abn: company.abn }
  return {
    content_type: type,
    drafts: answer.value.drafts.map((d) => finalDraft(type, d, sender, input.incentive)),
    sender: { business_name: company.business_name, abn: company.abn },
    rules: rulesFor(type),
    not_sent: NOT_SENT,
    produced_by: answer.producedBy,
    provider_note: answer.note,
  }
}
