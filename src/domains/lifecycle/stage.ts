// The stage rules (ours: no public source defines these stages by a business's figures, so no
// threshold here is a published one; docs/decisions.md). In order, the first that holds:
//   formation: no money received and no job completed yet;
//   survival:  less than a full year of trading, revenue below the year before, or nothing left after costs;
//   capacity:  no employees (the owner's own hours are the limit);
//   funding:   employees, but growth is not yet paying for itself (revenue not up, nothing left, or money overdue);
//   scaling:   employees, revenue up on the year before, money left after costs and nothing overdue.
import type { Stage } from './schema.js'

export interface StageInputs {
  months: number
  employees: number
  revenue: number
  revenue_prev: number
  costs: number
  completed_jobs: number
  overdue: number
}

export interface StageRule { stage: Stage; rule: string; holds: boolean; missing: string[] }

export function stageRules(s: StageInputs): StageRule[] {
  const left = s.revenue - s.costs
  const shrinking = s.revenue_prev > 0 && s.revenue < s.revenue_prev
  const growing = s.revenue_prev > 0 && s.revenue > s.revenue_prev
  const survivalMissing = [
    s.months < 12 && 'a full year of trading',
    shrinking && 'revenue at least level with the year before',
    left <= 0 && 'money left after job and recurring costs',
  ].filter((x): x is string => Boolean(x))
  const scalingMissing = [
    !growing && 'revenue up on the year before',
    left <= 0 && 'money left after job and recurring costs',
    s.overdue > 0 && 'nothing overdue',
  ].filter((x): x is string => Boolean(x))
  return [
    { stage: 'formation', rule: 'No money received and no job completed yet.', holds: s.revenue === 0 && s.completed_jobs === 0, missing: ['a first job completed and paid for'] },
    { stage: 'survival', rule: 'Less than a full year of trading, revenue below the year before, or nothing left after costs.', holds: survivalMissing.length > 0, missing: survivalMissing },
    { stage: 'capacity', rule: 'Trading steadily with no employees: the owner\'s own hours are the limit.', holds: s.employees === 0, missing: ['a first employee or apprentice'] },
    { stage: 'funding', rule: 'Employees, but growth does not yet pay for itself: revenue not up on the year before, nothing left after costs, or money overdue.', holds: scalingMissing.length > 0, missing: scalingMissing },
    { stage: 'scaling', rule: 'Employees, revenue up on the year before, money left after costs and nothing overdue.', holds: true, missing: [] },
  ]
}

export const PRIORITIES: Record<Stage, string[]> = {
  formation: ['Set up: ABN, structure, licences and insurance (formation.guided_setup, formation.checklist).', 'Win and finish the first jobs.'],
  survival: ['Cash first: invoice every job and collect what is owed.', 'Price so each job leaves money after its costs.'],
  capacity: ['Use your hours on the best-paying work.', 'Check whether the demand would keep a first employee or apprentice busy (hiring.capacity_analysis).'],
  funding: ['Fund the growth: collect overdue money, check apprentice incentives (funding.eligibility_scan).', 'Keep the margin while the team grows.'],
  scaling: ['Grow deliberately: a crew, an area or a service at a time (scaling.readiness_score).', 'Keep the systems that got you here: invoicing, collection, follow-ups.'],
}
