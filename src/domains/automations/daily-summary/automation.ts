import Type from 'typebox'
import { closed, defineAutomation } from '../engine/catalogue.js'

/** workflows.daily_summary: the owner's email each morning, on the company's local clock. */
export const DailySummarySettings = Type.Object(
  { time: Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', default: '07:00', description: "Local time to send it, HH:MM in the company's time zone (default 07:00)" }) },
  closed,
)

export const dailySummaryAutomation = defineAutomation({
  key: 'daily_summary', tool: 'workflows.daily_summary', title: 'Daily summary email',
  trigger: "every day at the set local time (a Temporal Schedule in the company's time zone)", action: "emails the owner yesterday's and today's figures",
  enabledByDefault: false, settings: DailySummarySettings,
})
