// hiring.capacity_analysis: the company's own jobs, leads and quotes over the last weeks, scored 0
// to 100 for how fully the team's time is used, and what that says about hiring.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { companyToday } from '../../core/company-time.js'
import { withTenant } from '../../db/sql.js'
import { cite, factValue, GENERAL_INFORMATION } from '../../facts/facts.js'
import { capacityScore } from './capacity-score.js'
import { used } from './factors.js'
import { workStats, type WorkStats } from './queries.js'
import type { CapacityInput, CapacityResponse } from './schema.js'

const DAY_MS = 86_400_000
/** Jobs record no hours: a job is assumed to take one working day unless the caller says otherwise. */
export const ASSUMED_HOURS_PER_JOB = 8
const HOURS_FACT = 'employment.ordinary_hours_per_week'

export interface CapacityData { today: string; from: string; stats: WorkStats }

export async function readCapacityData(deps: Deps, principal: Principal, weeks: number): Promise<CapacityData> {
  const now = deps.clock.now()
  const window = { from: new Date(now.getTime() - weeks * 7 * DAY_MS), to: now }
  return withTenant(deps.db, principal.companyId, async (tx) => ({
    today: await companyToday(tx, now), from: window.from.toISOString().slice(0, 10), stats: await workStats(tx, window),
  }))
}

export function analyseCapacity(input: Static<typeof CapacityInput>, data: CapacityData): Static<typeof CapacityResponse> {
  const weeks = input.weeks ?? 12
  const { stats } = data
  const team = input.team_size ?? (stats.technicians > 0 ? stats.technicians : 1)
  const teamOrigin = input.team_size !== undefined ? 'supplied' : stats.technicians > 0 ? 'company_data' : 'assumed'
  const hoursPerPerson = input.hours_per_person_per_week ?? factValue(HOURS_FACT)
  const hoursPerJob = input.hours_per_job ?? ASSUMED_HOURS_PER_JOB
  const r = capacityScore({
    weeks, team_size: team, team_origin: teamOrigin, hours_per_person_per_week: hoursPerPerson, hours_per_job: hoursPerJob,
    hours_origin: input.hours_per_job !== undefined ? 'supplied' : 'assumed', ...stats,
  })
  const verdict = {
    hire_now: 'The team is at or near full stretch: work the cost of a hire (hiring.cost_calculator) and the readiness to take one on (hiring.readiness_score).',
    near_capacity: 'The team is getting full: watch the booked hours and the work turned away; plan the next hire before it becomes urgent.',
    room_to_grow: 'There is room in the week for more work before another person is needed: more leads come first.',
  }[r.verdict]
  const summary = [
    `Capacity score ${r.score} out of 100 over the ${weeks} weeks to ${data.today}.`,
    `${stats.booked_jobs} jobs booked or done at ${hoursPerJob} hours each is ${r.bookedPerWeek} hours a week, ${r.utilisation}% of the team's ${r.capacity} hours (${team} ${team === 1 ? 'person' : 'people'} x ${hoursPerPerson} hours).`,
    `${stats.forward_jobs} scheduled jobs ahead fill ${r.forwardWeeks} weeks; ${stats.open_leads} leads are open; ${r.winRate === null ? 'no quote was decided' : `${r.winRate}% of decided quotes were accepted`}; ${stats.turned_down} of ${stats.leads} leads were lost without a quote.`,
    verdict,
  ]
  if (input.hours_per_job === undefined) summary.push(`Jobs record no hours, so ${ASSUMED_HOURS_PER_JOB} hours a job is assumed: pass hours_per_job for a truer figure.`)
  return {
    score: r.score, factors: r.factors, window: { from: data.from, to: data.today, weeks }, team_size: team,
    capacity_hours_per_week: r.capacity, booked_hours_per_week: r.bookedPerWeek, utilisation_percent: r.utilisation,
    forward_booked_weeks: r.forwardWeeks, open_leads: stats.open_leads, win_rate_percent: r.winRate, turned_down_leads: stats.turned_down,
    verdict: r.verdict, summary,
    inputs: [
      used('weeks', weeks, input.weeks !== undefined ? 'supplied' : 'assumed'),
      used('team_size', team, teamOrigin),
      used('hours_per_person_per_week', hoursPerPerson, input.hours_per_person_per_week !== undefined ? 'supplied' : 'assumed'),
      used('hours_per_job', hoursPerJob, input.hours_per_job !== undefined ? 'supplied' : 'assumed'),
      used('jobs, leads and quotes', `${stats.booked_jobs} jobs, ${stats.leads} leads, ${stats.quotes_accepted + stats.quotes_lost} decided quotes`, 'company_data'),
    ],
    facts: cite(input.hours_per_person_per_week === undefined ? [HOURS_FACT] : [], data.today),
    disclaimer: GENERAL_INFORMATION,
  }
}
