// The automations a company can turn on and off (workflows.list, workflows.toggle), each with its
// settings schema and defaults. The key is what automation_settings.automation and
// automation_runs.automation hold. An automation's settings are part of its workflow's input (the
// policy), so tests run the real workflow with short delays.
import type { TSchema } from 'typebox'
import Type from 'typebox'
import { StringEnum } from '../../../core/schema-helpers.js'

const closed = { additionalProperties: false } as const
const ChannelChoice = StringEnum(['sms', 'email', 'both'] as const, { description: 'How to reach the client: sms, email or both (default: SMS to an Australian mobile, otherwise email)' })

/** How long an action waits for approval before it expires, executing nothing (every automation that supports approval). */
export const ApprovalExpiryHours = Type.Integer({
  minimum: 1, maximum: 720, default: 48, description: 'Hours an action waits in workflows.pending_actions before it expires unsent (1-720, default 48)',
})

/** workflows.follow_up_quote: days after the quote was sent, at most three follow-ups (the spec's limit). */
export const FollowUpQuoteSettings = Type.Object(
  {
    delays_days: Type.Array(Type.Integer({ minimum: 1, maximum: 60 }), {
      minItems: 1, maxItems: 3, default: [2, 5, 10], description: 'Days after sending to follow up, ascending; at most 3 follow-ups (default 2, 5 and 10)',
    }),
    channel: Type.Optional(ChannelChoice),
    approval_expiry_hours: Type.Optional(ApprovalExpiryHours),
  },
  closed,
)

export const CHASE_TONES = ['friendly', 'firm', 'final'] as const

/** workflows.chase_payment: any number of steps before or after the due date, each with a tone and channels. */
export const ChasePaymentSettings = Type.Object(
  {
    steps: Type.Array(
      Type.Object(
        {
          offset_days: Type.Integer({ minimum: -30, maximum: 365, description: 'Days after the due date (negative: before it; 0: on the day)' }),
          tone: StringEnum(CHASE_TONES, { description: 'Template tone: friendly, firm or final' }),
          channel: Type.Optional(ChannelChoice),
        },
        closed,
      ),
      {
        minItems: 1, maxItems: 12,
        default: [{ offset_days: 0, tone: 'friendly' }, { offset_days: 7, tone: 'friendly' }, { offset_days: 14, tone: 'firm' }, { offset_days: 30, tone: 'final' }],
        description: 'The cadence, in order of offset_days (default: friendly on the due date and at 7 days, firm at 14, final at 30)',
      },
    ),
    approval_expiry_hours: Type.Optional(ApprovalExpiryHours),
  },
  closed,
)

export interface AutomationEntry {
  key: string
  /** The tool that runs it on demand (also its name in workflows.list). */
  tool: string
  title: string
  trigger: string
  action: string
  /** On for a new company. */
  enabledByDefault: boolean
  settings: TSchema
  /** Its actions can wait for approval (workflows.toggle require_approval; workflows.pending_actions). */
  supportsApproval?: boolean
}

const NoSettings = Type.Object({}, closed)

/** workflows.team_notify: only the approval window. */
export const TeamNotifySettings = Type.Object({ approval_expiry_hours: Type.Optional(ApprovalExpiryHours) }, closed)

const REVIEW_PLATFORM_KEYS = ['google', 'facebook', 'hipages', 'productreview', 'wordofmouth', 'trustpilot', 'yelp', 'truelocal', 'serviceseeking'] as const

/** workflows.review_booster: the request some days after completion, then one reminder. */
export const ReviewBoosterSettings = Type.Object(
  {
    delay_days: Type.Integer({ minimum: 0, maximum: 30, default: 1, description: 'Days after the job is completed to send the review request (0: at once; default 1)' }),
    reminder_days: Type.Integer({ minimum: 0, maximum: 60, default: 7, description: 'Days after the request to send the one reminder (0: no reminder; default 7)' }),
    platform: Type.Optional(StringEnum(REVIEW_PLATFORM_KEYS, { description: "Review platform to link to; default the company's default platform" })),
    channel: Type.Optional(ChannelChoice),
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
    channel: Type.Optional(ChannelChoice),
    approval_expiry_hours: Type.Optional(ApprovalExpiryHours),
  },
  closed,
)

/** workflows.daily_summary: the owner's email each morning, on the company's local clock. */
export const DailySummarySettings = Type.Object(
  { time: Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', default: '07:00', description: "Local time to send it, HH:MM in the company's time zone (default 07:00)" }) },
  closed,
)

/** workflows.trigger_invoice and workflows.quote_to_invoice: how the invoice's payment link goes out. */
export const InvoiceFlowSettings = Type.Object(
  { channel: Type.Optional(StringEnum(['sms', 'email', 'both'] as const, { default: 'both', description: "How the payment link (or the invoice) reaches the client: sms, email or both (default both; a channel the client has no details for is skipped)" })) },
  closed,
)

export const AUTOMATIONS: AutomationEntry[] = [
  {
    key: 'instant_response', tool: 'workflows.instant_response', title: 'Instant lead response',
    trigger: 'a new lead', action: 'SMS (and email) reply within 30 seconds; lead marked Contacted', enabledByDefault: true, settings: NoSettings,
  },
  {
    key: 'follow_up_quote', tool: 'workflows.follow_up_quote', title: 'Quote follow-ups',
    trigger: 'a quote sent (quotes.send)', action: 'up to 3 follow-ups while the quote is Sent or Viewed; stops when it is accepted, declined, expires or is sent again; with approval on, each follow-up waits in workflows.pending_actions',
    enabledByDefault: true, settings: FollowUpQuoteSettings, supportsApproval: true,
  },
  {
    key: 'chase_payment', tool: 'workflows.chase_payment', title: 'Payment chase',
    trigger: 'an invoice sent', action: 'reminders on the cadence until it is paid, voided or on a payment plan; with approval on, each reminder waits in workflows.pending_actions',
    enabledByDefault: true, settings: ChasePaymentSettings, supportsApproval: true,
  },
  {
    key: 'team_notify', tool: 'workflows.team_notify', title: 'Team notice',
    trigger: 'on request (workflows.team_notify)', action: 'SMS and/or email to the team or named technicians; with approval on, it waits in workflows.pending_actions',
    enabledByDefault: true, settings: TeamNotifySettings, supportsApproval: true,
  },
  {
    key: 'sync_contact', tool: 'workflows.sync_contact', title: 'Contact sync',
    trigger: 'on request (workflows.sync_contact)', action: 'pushes a lead or client to the connected accounting integration; none can be connected in this deployment yet, so it records that nothing was pushed',
    enabledByDefault: true, settings: NoSettings,
  },
  {
    key: 'review_booster', tool: 'workflows.review_booster', title: 'Review booster',
    trigger: 'a job completed (jobs.complete)', action: 'a review request after delay_days, then one reminder after reminder_days unless the client opted out, replied or was asked twice already',
    enabledByDefault: false, settings: ReviewBoosterSettings, supportsApproval: true,
  },
  {
    key: 'referral_program', tool: 'workflows.referral_program', title: 'Referral offers',
    trigger: 'a job completed with a 5-star satisfaction rating', action: "a referral offer with the client's personal code; leads created with source referral:<CODE> are tracked to it",
    enabledByDefault: false, settings: ReferralProgramSettings, supportsApproval: true,
  },
  {
    key: 'daily_summary', tool: 'workflows.daily_summary', title: 'Daily summary email',
    trigger: "every day at the set local time (a Temporal Schedule in the company's time zone)", action: "emails the owner yesterday's and today's figures",
    enabledByDefault: false, settings: DailySummarySettings,
  },
  {
    key: 'schedule_job', tool: 'workflows.schedule_job', title: 'Schedule on the next business day',
    trigger: 'on request (workflows.schedule_job)', action: "books the job on the next business day of the company's state (weekends and public holidays skipped), status Scheduled",
    enabledByDefault: true, settings: NoSettings,
  },
  {
    key: 'trigger_invoice', tool: 'workflows.trigger_invoice', title: 'Invoice a completed job',
    trigger: 'on request (workflows.trigger_invoice)', action: 'the final invoice, then the payment link (the invoice without a payment account); the payment chase follows',
    enabledByDefault: true, settings: InvoiceFlowSettings,
  },
  {
    key: 'quote_to_invoice', tool: 'workflows.quote_to_invoice', title: 'Quote to invoice',
    trigger: 'on request for an Accepted quote (workflows.quote_to_invoice)', action: "makes the quote's job, waits until it is Completed, then invoices it and sends the payment link; stops if the job is cancelled",
    enabledByDefault: true, settings: InvoiceFlowSettings,
  },
  {
    key: 'process_lead', tool: 'workflows.process_lead', title: 'Lead processing',
    trigger: 'on request (workflows.process_lead)', action: 'scores the lead, sets its priority, makes one follow-up reminder and starts the instant response if it has not run',
    enabledByDefault: true, settings: NoSettings,
  },
]

export function automation(key: string): AutomationEntry | undefined {
  return AUTOMATIONS.find((a) => a.key === key)
}
