import Type from 'typebox'
import { StringEnum } from '../../../core/schema-helpers.js'
import { ApprovalExpiryHours, ChannelChoiceSchema, closed, defineAutomation } from '../engine/catalogue.js'

const REVIEW_PLATFORM_KEYS = ['google', 'facebook', 'hipages', 'productreview', 'wordofmouth', 'trustpilot', 'yelp', 'truelocal', 'serviceseeking'] as const

/** workflows.review_booster: the request some days after completion, then one reminder. */
export const ReviewBoosterSettings = Type.Object(
  {
    delay_days: Type.Integer({ minimum: 0, maximum: 30, default: 1, description: 'Days after the job is completed to send the review request (0: at once; default 1)' }),
    reminder_days: Type.Integer({ minimum: 0, maximum: 60, default: 7, description: 'Days after the request to send the one reminder (0: no reminder; default 7)' }),
    platform: Type.Optional(StringEnum(REVIEW_PLATFORM_KEYS, { description: "Review platform to link to; default the company's default platform" })),
    channel: Type.Optional(ChannelChoiceSchema),
    approval_expiry_hours: Type.Optional(ApprovalExpiryHours),
  },
  closed,
)

export const REFERRAL_REWARD_TYPES = ['discount', 'credit', 'gift_card'] as const

/** workflows.referral_program: the offer after a 5-star completion. */
export const ReferralProgramSettings = Type.Object(
  {
    reward_type: StringEnum(REFERRAL_REWARD_TYPES, { default: 'discount', description: 'What the referrer gets: discount, credit or gift_card (default discount)' }),
    reward_amount: Type.Number({ minimum: 0, maximum: 10_000, default: 50, description: 'Reward value in AUD dollars (default 50)' }),
    delay_days: Type.Integer({ minimum: 0, maximum: 30, default: 1, description: 'Days after the 5-star completion to send the offer (0: at once; default 1)' }),
    channel: Type.Optional(ChannelChoiceSchema),
    approval_expiry_hours: Type.Optional(ApprovalExpiryHours),
  },
  closed,
)

export const reviewBoosterAutomation = defineAutomation({
  key: 'review_booster', tool: 'workflows.review_booster', title: 'Review booster',
  trigger: 'a job completed (jobs.complete)', action: 'a review request after delay_days, then one reminder after reminder_days unless the client opted out, replied or was asked twice already',
  enabledByDefault: false, settings: ReviewBoosterSettings, supportsApproval: true,
})

export const referralProgramAutomation = defineAutomation({
  key: 'referral_program', tool: 'workflows.referral_program', title: 'Referral offers',
  trigger: 'a job completed with a 5-star satisfaction rating', action: "a referral offer with the client's personal code; leads created with source referral:<CODE> are tracked to it",
  enabledByDefault: false, settings: ReferralProgramSettings, supportsApproval: true,
})
