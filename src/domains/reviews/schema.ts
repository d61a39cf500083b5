import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { closed, DryRun, Id, MessageOutputFields, REVIEW_PLATFORMS } from '../shared-schema.js'

export type ReviewPlatform = (typeof REVIEW_PLATFORMS)[number]

export const PLATFORM_NAMES: Record<ReviewPlatform, string> = {
  google: 'Google Business Profile',
  facebook: 'Facebook',
  hipages: 'hipages',
  productreview: 'ProductReview.com.au',
  wordofmouth: 'Word of Mouth',
  trustpilot: 'Trustpilot',
  yelp: 'Yelp',
  truelocal: 'TrueLocal',
  serviceseeking: 'ServiceSeeking',
}

const Platform = (description: string) => StringEnum(REVIEW_PLATFORMS, { description })

/** Without a channel: SMS when the client has an Australian mobile, otherwise email. */
export const ReviewChannel = StringEnum(['sms', 'email', 'both'] as const, {
  description: 'Default: SMS to an Australian mobile, otherwise email',
})

export const RequestReviewInput = Type.Object(
  {
    job_id: Id('Completed job whose client to ask'),
    platform: Type.Optional(Platform("Review platform to link to; defaults to the company's default platform (see reviews.platforms)")),
    channel: Type.Optional(ReviewChannel),
    message: Type.Optional(Type.String({ maxLength: 500, description: "The owner's note, sent as written after the greeting (a note with its own greeting replaces ours); the review link follows" })),
    force: Type.Optional(Type.Boolean({ default: false, description: 'Ask again although this job was already asked (once per job otherwise)' })),
    dry_run: DryRun,
  },
  closed,
)

const HttpsUrl = Type.String({ maxLength: 500, pattern: '^https://\\S+$', description: 'https URL of the review page' })

export const UpdateReviewSettingsInput = Type.Object(
  {
    links: Type.Optional(Type.Object(
      Object.fromEntries(REVIEW_PLATFORMS.map((p) => [p, Type.Optional(Nullable(HttpsUrl))])),
      { ...closed, description: 'Review link per platform (https); null removes one. Only the platforms given change' },
    )),
    default_platform: Type.Optional(Nullable(Platform('Platform review requests link to by default; it needs a link. null: the first platform with a link'))),
  },
  { additionalProperties: false, minProperties: 1 },
)

export const PlatformSchema = Type.Object({
  platform: Platform('Platform key, as reviews.request takes it'),
  name: Type.String(),
  url: Nullable(Type.String()),
  configured: Type.Boolean({ description: 'A review link is set' }),
  is_default: Type.Boolean(),
})

export const ReviewPlatformsResponse = Type.Object({
  platforms: Type.Array(PlatformSchema),
  default_platform: Nullable(Platform('Where requests link without a platform; null until a link is set')),
  configure: Type.String({ description: 'How to set links' }),
})

export const ReviewRequestSchema = Type.Object({
  id: Type.String(),
  jobId: Type.String(),
  requestNumber: Type.Integer({ description: '1 for the first request for the job; each forced repeat adds one' }),
  platform: Platform('Platform linked to'),
  url: Type.String(),
  channels: Type.Array(StringEnum(['sms', 'email'] as const)),
  skipped: Type.Array(Type.String({ description: 'Why a requested channel was not used' })),
  workflowId: Type.String({ description: 'Temporal workflow delivering the messages' }),
  createdAt: DateTime(),
})

export const RequestReviewResponse = Type.Object({
  sent: Type.Boolean({ description: 'Messages were queued now (false: the job was asked before and force was not given)' }),
  already_requested: Type.Boolean(),
  request: Type.Union([ReviewRequestSchema, Type.Null()], { description: 'The request recorded (or the earlier one); null on a dry run' }),
  ...MessageOutputFields,
  note: Type.String(),
})

/** What jobs.complete with request_review says about the request. */
export const CompletionReviewOutcome = Type.Object({
  sent: Type.Boolean({ description: 'A review request was queued to the client' }),
  note: Type.String({ description: 'What happened, or why nothing was sent and what to do' }),
  request: Nullable(ReviewRequestSchema),
})
