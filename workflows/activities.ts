// Every activity any workflow calls, as the union of the workflows' own activity interfaces.
// activities/index.ts checks that the worker's activity set provides all of them.
import type { DailySummaryActivities } from './daily-summary.js'
import type { DeliverMessagesActivities } from './deliver-messages.js'
import type { InstantResponseActivities } from './instant-response.js'
import type { InvoiceChaseActivities } from './invoice-chase.js'
import type { ProcessLeadActivities } from './process-lead.js'
import type { QuoteFollowUpActivities } from './quote-follow-up.js'
import type { QuoteToInvoiceActivities } from './quote-to-invoice.js'
import type { ReferralOfferActivities } from './referral-offer.js'
import type { ReminderTimerActivities } from './reminder-timer.js'
import type { ReviewBoosterActivities } from './review-booster.js'
import type { ScheduleJobActivities } from './schedule-job.js'
import type { TeamNotifyActivities } from './team-notify.js'
import type { TrialLifecycleActivities } from './trial-lifecycle.js'
import type { TriggerInvoiceActivities } from './trigger-invoice.js'
import type { WebhookDeliveryActivities } from './webhook-delivery.js'

export type WorkflowActivities = DailySummaryActivities & DeliverMessagesActivities & InstantResponseActivities & InvoiceChaseActivities
  & ProcessLeadActivities & QuoteFollowUpActivities & QuoteToInvoiceActivities & ReferralOfferActivities & ReminderTimerActivities
  & ReviewBoosterActivities & ScheduleJobActivities & TeamNotifyActivities & TrialLifecycleActivities & TriggerInvoiceActivities
  & WebhookDeliveryActivities
