// What follows a profile change (core/next-steps.ts): the one setting later steps refuse without,
// the state (workflows.schedule_job skips its public holidays), until it is set.
import type { NextStep } from '../../core/next-steps.js'

export function afterProfileChange(output: { company: { state: string | null } }): NextStep[] {
  if (output.company.state) return []
  return [{ tool: 'company.update_profile', why: 'Set state (NSW, VIC, QLD, WA, SA, TAS, ACT, NT): workflows.schedule_job needs it to skip public holidays, and debt recovery to pick the small-claims forum.' }]
}
