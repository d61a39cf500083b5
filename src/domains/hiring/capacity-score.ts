// hiring.capacity_analysis's score, kept pure so a property test can drive it: how full the team's
// week is, how far ahead it is booked, the leads waiting, how often quotes are won and how much work
// was turned away. Each factor adds at most its weight; more of any of them never lowers the score.
import type { ScoreFactor } from '../../facts/schema.js'
import type { InputOrigin } from './schema.js'
import { clamp01, factor, percent, round1, total } from './factors.js'

/** The weights (add up to 100): utilisation leads, since hours already booked are the surest sign. */
export const CAPACITY_WEIGHTS = { utilisation: 40, forward_work: 20, lead_backlog: 15, win_rate: 10, turned_down: 15 } as const
/** Four weeks of booked work ahead counts as full; a quarter of leads turned away counts as full. */
const FULL_FORWARD_WEEKS = 4
const FULL_TURNED_DOWN_SHARE = 0.25

export interface CapacityFigures {
  weeks: number
  team_size: number
  team_origin: InputOrigin
  hours_per_person_per_week: number
  hours_per_job: number
  hours_origin: InputOrigin
  booked_jobs: number
  forward_jobs: number
  open_leads: number
  quotes_accepted: number
  quotes_lost: number
  leads: number
  turned_down: number
}

export function capacityScore(f: CapacityFigures) {
  const capacity = f.team_size * f.hours_per_person_per_week
  const bookedPerWeek = (f.booked_jobs * f.hours_per_job) / f.weeks
  const utilisation = bookedPerWeek / capacity
  const forwardWeeks = (f.forward_jobs * f.hours_per_job) / capacity
  const decided = f.quotes_accepted + f.quotes_lost
  const winRate = decided > 0 ? f.quotes_accepted / decided : null
  // Open leads likely to turn into work (at the win rate, or half when none is known), in weeks of capacity.
  const leadWeeks = (f.open_leads * (winRate ?? 0.5) * f.hours_per_job) / capacity
  const turnedShare = f.leads > 0 ? f.turned_down / f.leads : 0
  const w = CAPACITY_WEIGHTS
  const factors: ScoreFactor[] = [
    factor('utilisation', w.utilisation, utilisation, `${round1(bookedPerWeek)} booked hours a week of ${round1(capacity)} available (${percent(utilisation)})`, 'company_data',
      `${f.booked_jobs} jobs booked or done in ${f.weeks} weeks x ${f.hours_per_job} hours each, over ${f.team_size} people x ${f.hours_per_person_per_week} hours; full points at 100%.`),
    factor('forward_work', w.forward_work, forwardWeeks / FULL_FORWARD_WEEKS, `${round1(forwardWeeks)} weeks of capacity already booked ahead`, 'company_data',
      `${f.forward_jobs} scheduled jobs from today x ${f.hours_per_job} hours; full points at ${FULL_FORWARD_WEEKS} weeks.`),
    factor('lead_backlog', w.lead_backlog, leadWeeks / FULL_FORWARD_WEEKS, `${f.open_leads} open leads, about ${round1(leadWeeks)} weeks of work`, 'company_data',
      `Open leads x ${winRate === null ? 'an assumed 50% win rate (no quote decided yet)' : `your ${percent(winRate)} win rate`} x ${f.hours_per_job} hours; full points at ${FULL_FORWARD_WEEKS} weeks.`),
    factor('win_rate', w.win_rate, winRate ?? 0, winRate === null ? 'no quote decided in the window' : `${percent(winRate)} of ${decided} decided quotes accepted`,
      winRate === null ? 'assumed' : 'company_data', winRate === null ? 'No accepted, declined or expired quote in the window: no points.' : 'Points in proportion to the win rate.'),
    factor('turned_down', w.turned_down, turnedShare / FULL_TURNED_DOWN_SHARE, `${f.turned_down} of ${f.leads} leads lost without a quote`, 'company_data',
      `Work turned away or not followed up; full points when ${percent(FULL_TURNED_DOWN_SHARE)} of leads are.`),
  ]
  const score = total(factors)
  return {
    score, factors, capacity: round1(capacity), bookedPerWeek: round1(bookedPerWeek), utilisation: round1(utilisation * 100),
    forwardWeeks: round1(forwardWeeks), winRate: winRate === null ? null : round1(winRate * 100),
    verdict: score >= 75 ? 'hire_now' as const : score >= 50 ? 'near_capacity' as const : 'room_to_grow' as const,
    clampedUtilisation: clamp01(utilisation),
  }
}
