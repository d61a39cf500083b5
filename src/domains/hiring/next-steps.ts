// What follows each hiring answer (core/next-steps.ts): the tools form a path, from whether the team
// is full, to what a hire costs and whether the business can carry it, to the employer's obligations.
import { steps, type NextStep } from '../../core/next-steps.js'

export function afterCapacity(out: { verdict: string }): NextStep[] {
  return steps(
    out.verdict !== 'room_to_grow' && { tool: 'hiring.cost_calculator', why: 'Work out what the next hire would cost per hour, week and year.' },
    out.verdict !== 'room_to_grow' && { tool: 'hiring.readiness_score', why: 'Check the cash and registrations to carry an employee.' },
    out.verdict === 'room_to_grow' && { tool: 'marketing.strategy', why: 'There is room for more work: plan where the next leads come from.' },
  )
}

export function afterReadiness(out: { score: number; role: string }): NextStep[] {
  return steps(
    { tool: 'hiring.compliance_checklist', why: 'The employer obligations to close before the first day.' },
    out.role === 'apprentice' && { tool: 'hiring.apprentice_workflow', why: 'The steps and incentives for taking on an apprentice.' },
    out.score < 50 && { tool: 'hiring.capacity_analysis', why: 'Watch the workload until the team is full enough to justify a hire.' },
  )
}

export function afterCost(out: { role: string }): NextStep[] {
  return steps(
    { tool: 'hiring.readiness_score', why: 'Check the business can carry this cost (cash reserves against a quarter of it).' },
    out.role === 'apprentice' && { tool: 'hiring.apprentice_workflow', why: 'The apprentice steps, wage percentages by year and incentives.' },
  )
}

export const afterApprentice = (): NextStep[] => [
  { tool: 'hiring.cost_calculator', why: 'Cost the apprentice (role apprentice, apprentice_year) per hour, week and year.' },
  { tool: 'hiring.compliance_checklist', why: 'The employer obligations that apply to an apprentice as to any employee.' },
]

export const afterCompliance = (): NextStep[] => [
  { tool: 'hiring.cost_calculator', why: 'Cost the role with super, leave loading, workers\' compensation and payroll tax.' },
]
