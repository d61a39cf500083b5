// workflows.daily_summary: the tool reads one day's summary; the automation emails it to the owner
// every day at the company's chosen local time. The timer is a Temporal Schedule per company
// (id daily-summary:<companyId>, a calendar spec at HH:MM in companies.time_zone), created, moved
// or deleted whenever workflows.toggle changes the automation (syncDailySummarySchedule). Each
// fire runs the dailySummary workflow, which asks the database first (still on?) and sends one
// email keyed by company and local date: a second fire or a manual trigger on the same day sends
// nothing more.
import Type, { type Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { AppError, validationError } from '../../../core/errors.js'
import { escapeHtml } from '../../../core/html-escape.js'
import { READ } from '../../../core/annotations.js'
import { defineOperation } from '../../../core/operation.js'
import { addDays } from '../../../core/period.js'
import { DateTime } from '../../../core/schema-helpers.js'
import { localDate } from '../../../core/zoned-time.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import { dailySummary, dailySummaryWorkflowId, type DailySummaryInput, type DailySummaryPlan, type DailySummaryActivities } from './workflows/daily-summary.js'
import { companyTimeZone, isCalendarDate } from '../../analytics/window.js'
import { closed, DateOnly } from '../../shared-schema.js'
import { dayFigures, DayFiguresSchema, openFigures, OpenFiguresSchema, summaryText } from './daily-summary-figures.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun } from '../engine/queries/runs.js'
import { dailySummaryAutomation } from './automation.js'
import { findSummaryRecipient } from './queries.js'

export const DAILY_SUMMARY = dailySummaryAutomation.key
export const dailySummaryScheduleId = (companyId: string) => dailySummaryWorkflowId({ companyId })

export type { DailySummaryInput, DailySummaryPlan }

export const dailySummaryDefinition = defineWorkflow<DailySummaryActivities>()({
  workflow: dailySummary,
  id: dailySummaryWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE',
  description: "Emails the owner yesterday's and today's figures; started by the company's daily Temporal Schedule (the fire time is appended to the id). One email per company and local date.",
})

/** Makes the company's schedule match its choice: on, at its local time and zone; off, none. Idempotent. */
export async function syncDailySummarySchedule(deps: Deps, companyId: string): Promise<{ scheduled: boolean; time: string; timeZone: string }> {
  const { choice, timeZone } = await withTenant(deps.db, companyId, async (tx) => ({
    choice: await automationChoice(tx, dailySummaryAutomation), timeZone: await companyTimeZone(tx),
  }))
  const scheduleId = dailySummaryScheduleId(companyId)
  try {
    if (!choice.enabled) await deps.workflows.deleteSchedule(scheduleId)
    else {
      const [hour, minute] = choice.settings.time.split(':').map(Number) as [number, number]
      await deps.workflows.upsertDailySchedule(scheduleId, workflowStart(dailySummaryDefinition, { companyId }), { hour, minute, timeZone })
    }
  } catch (error) {
    throw new AppError('worker_unavailable', `The setting is saved, but the daily schedule could not be ${choice.enabled ? 'set' : 'removed'} in Temporal (${(error as Error).message}). Call workflows.toggle again with the same settings once Temporal is reachable.`)
  }
  return { scheduled: choice.enabled, time: choice.settings.time, timeZone }
}


/** Activity: the owner's email for today (local), or why none goes. The run is recorded here. */
export async function planDailySummary(deps: Deps, input: { companyId: string; workflowId: string }): Promise<DailySummaryPlan> {
  const now = deps.clock.now()
  return withTenant(deps.db, input.companyId, async (tx) => {
    const choice = await automationChoice(tx, dailySummaryAutomation)
    if (!choice.enabled) return { stop: 'daily summary turned off' }
    await insertRun(tx, { companyId: input.companyId, automation: DAILY_SUMMARY, workflowId: input.workflowId, subjectType: 'company', subjectId: input.companyId }, now)
    const tz = await companyTimeZone(tx)
    const today = localDate(now, tz)
    const company = await findSummaryRecipient(tx)
    const text = summaryText(company!.business_name, await dayFigures(tx, addDays(today, -1), tz), await dayFigures(tx, today, tz), await openFigures(tx, today, tz, now))
    const html = text.split('\n').map((line) => `<p>${escapeHtml(line)}</p>`).join('')
    return {
      stop: null, date: today,
      message: {
        channel: 'email', messageType: 'daily_summary', to: company!.contact_email, subject: `Daily summary ${today}: ${company!.business_name}`,
        body: html, text, idempotencyKey: `daily-summary:${input.companyId}:${today}`,
      },
    }
  })
}

const DailySummaryOutput = Type.Object({
  date: Type.String({ format: 'date', description: "The day summarised (the company's time zone)" }),
  time_zone: Type.String(),
  as_of: DateTime({ description: 'When the figures were read' }),
  day: DayFiguresSchema,
  open: Type.Object(OpenFiguresSchema.properties, { description: 'Open now (as of as_of); reminders due by the end of the day summarised' }),
})

export async function readDailySummary(deps: Deps, principal: Principal, input: { date?: string }): Promise<Static<typeof DailySummaryOutput>> {
  if (input.date !== undefined && !isCalendarDate(input.date)) throw validationError(['date: must be a calendar date YYYY-MM-DD'])
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const tz = await companyTimeZone(tx)
    const date = input.date ?? localDate(now, tz)
    return { date, time_zone: tz, as_of: now.toISOString(), day: await dayFigures(tx, date, tz), open: await openFigures(tx, date, tz, now) }
  })
}

export const dailySummaryOperation = defineOperation({
  name: 'workflows.daily_summary',
  domain: 'workflows',
  title: 'Daily summary',
  description:
    "One day's summary in the company's time zone: new leads, jobs booked and completed, quotes sent and accepted, payments received, the day's jobs, and what is open now (quotes awaiting a reply, overdue invoices, reminders due, actions pending approval). Read only. Turn on the daily_summary automation (workflows.toggle, settings.time HH:MM) to have yesterday's and today's figures emailed to the owner every morning.",
  input: Type.Object({ date: Type.Optional(DateOnly("Day to summarise (YYYY-MM-DD, company's time zone); default today")) }, closed),
  output: DailySummaryOutput,
  access: { permission: 'read' },
  cost: 'read',
  annotations: READ,
  run: (ctx, input) => readDailySummary(ctx.deps, ctx.principal!, input),
})
