import Type from 'typebox'
import { StringEnum } from '../../../core/schema-helpers.js'
import { ApprovalExpiryHours, ChannelChoiceSchema, closed, defineAutomation } from '../engine/catalogue.js'

export const CHASE_TONES = ['friendly', 'firm', 'final'] as const

/** workflows.chase_payment: any number of steps before or after the due date, each with a tone and channels. */
export const ChasePaymentSettings = Type.Object(
  {
    steps: Type.Array(
      Type.Object(
        {
          offset_days: Type.Integer({ minimum: -30, maximum: 365, description: 'Days after the due date (negative: before it; 0: on the day)' }),
          tone: StringEnum(CHASE_TONES, { description: 'Template tone: friendly, firm or final' }),
          channel: Type.Optional(ChannelChoiceSchema),
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

export const chasePaymentAutomation = defineAutomation({
  key: 'chase_payment', tool: 'workflows.chase_payment', title: 'Payment chase',
  trigger: 'an invoice sent', action: 'reminders on the cadence until it is paid, voided or on a payment plan; with approval on, each reminder waits in workflows.pending_actions',
  enabledByDefault: true, settings: ChasePaymentSettings, supportsApproval: true,
})
