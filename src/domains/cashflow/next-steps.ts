// What follows a recurring cost recorded (core/next-steps.ts): the forecast it now counts in.
import type { NextStep } from '../../core/next-steps.js'

export function afterRecurringCost(output: { recurring_cost: { name: string; next_on: string | null } }): NextStep[] {
  const cost = output.recurring_cost
  if (!cost.next_on) return []
  return [{ tool: 'cashflow.forecast', why: `See the next 30 days with ${cost.name} counted as money out on each date it falls due (next ${cost.next_on}).` }]
}
