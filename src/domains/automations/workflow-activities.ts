// What the automations' workflows ask of this domain's activities: each workflow's own activity
// interface (declared beside it in workflows/), less sendMessage, which the comms domain provides.
// The domain's activity factory `satisfies` this, so a workflow and its activities cannot drift.
import type { DailySummaryActivities } from '../../../workflows/daily-summary.js'
import type { InstantResponseActivities } from '../../../workflows/instant-response.js'
import type { InvoiceChaseActivities } from '../../../workflows/invoice-chase.js'
import type { SendMessageActivities } from '../../../workflows/messages.js'
import type { ProcessLeadActivities } from '../../../workflows/process-lead.js'
import type { QuoteFollowUpActivities } from '../../../workflows/quote-follow-up.js'
import type { QuoteToInvoiceActivities } from '../../../workflows/quote-to-invoice.js'
import type { ReferralOfferActivities } from '../../../workflows/referral-offer.js'
import type { ReviewBoosterActivities } from '../../../workflows/review-booster.js'
import type { ScheduleJobActivities } from '../../../workflows/schedule-job.js'
import type { TeamNotifyActivities } from '../../../workflows/team-notify.js'
import type { TriggerInvoiceActivities } from '../../../workflows/trigger-invoice.js'

export type AutomationWorkflowActivities = Omit<
  DailySummaryActivities & InstantResponseActivities & InvoiceChaseActivities & ProcessLeadActivities & QuoteFollowUpActivities
  & QuoteToInvoiceActivities & ReferralOfferActivities & ReviewBoosterActivities & ScheduleJobActivities & TeamNotifyActivities
  & TriggerInvoiceActivities,
  keyof SendMessageActivities
>
