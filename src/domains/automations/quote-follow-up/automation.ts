import Type from 'typebox'
import { ApprovalExpiryHours, ChannelChoiceSchema, closed, defineAutomation } from '../engine/catalogue.js'

/** workflows.follow_up_quote: days after the quote was sent, at most three follow-ups (the spec's limit). */
export const FollowUpQuoteSettings = Type.Object(
  {
    delays_days: Type.Array(Type.Integer({ minimum: 1, maximum: 60 }), {
      minItems: 1, maxItems: 3, default: [2, 5, 10], description: 'Days after sending to follow up, ascending; at most 3 follow-ups (default 2, 5 and 10)',
    }),
    channel: Type.Optional(ChannelChoiceSchema),
    approval_expiry_hours: Type.Optional(ApprovalExpiryHours),
  },
  closed,
)

export const followUpQuoteAutomation = defineAutomation({
  key: 'follow_up_quote', tool: 'workflows.follow_up_quote', title: 'Quote follow-ups',
  trigger: 'a quote sent (quotes.send)', action: 'up to 3 follow-ups while the quote is Sent or Viewed; stops when it is accepted, declined, expires or is sent again; with approval on, each follow-up waits in workflows.pending_actions',
  enabledByDefault: true, settings: FollowUpQuoteSettings, supportsApproval: true,
})
