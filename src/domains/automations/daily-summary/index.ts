// The daily summary: the tool reads a day's figures; the automation emails them on the company's
// Temporal Schedule, which follows the automation's choice (automation.toggled) and the company's
// time zone (company.settings_changed), after commit.
import type { Deps } from '../../../core/deps.js'
import type { DomainEvent } from '../../../core/reactions.js'
import { defineFeature } from '../engine/catalogue.js'
import { dailySummaryAutomation } from './automation.js'
import { dailySummaryDefinition, dailySummaryOperation, planDailySummary, syncDailySummarySchedule } from './daily-summary.js'

export const dailySummaryFeature = defineFeature({
  name: 'daily-summary',
  automations: [dailySummaryAutomation],
  operations: [dailySummaryOperation],
  activities: (deps: Deps) => ({
    planDailySummary: (input: Parameters<typeof planDailySummary>[1]) => planDailySummary(deps, input),
  }),
  workflows: [dailySummaryDefinition],
  reactions: [
    {
      name: 'daily-summary: schedule follows the choice',
      on: ['automation.toggled'],
      // Awaited: a schedule Temporal could not set is the toggle's error (worker_unavailable).
      async afterCommit(deps: Deps, event: DomainEvent) {
        if ((event.payload as { key: string }).key === dailySummaryAutomation.key) await syncDailySummarySchedule(deps, event.companyId)
      },
    },
    {
      name: 'daily-summary: schedule follows the time zone',
      on: ['company.settings_changed'],
      async afterCommit(deps: Deps, event: DomainEvent) {
        if ((event.payload as { time_zone?: string }).time_zone !== undefined) await syncDailySummarySchedule(deps, event.companyId)
      },
    },
  ],
})
