// What follows a funding result: the details of the best match, or the scan after the details.
import { steps, type NextStep } from '../../core/next-steps.js'

interface Scanned { programs: { program: { program_id: string; name: string; status: string }; verdict: string }[] }

export function afterScan(output: Scanned): NextStep[] {
  const best = output.programs.find((p) => p.verdict !== 'not_eligible' && p.program.status === 'open')
  return steps(best && { tool: 'funding.program_details', why: `See the amounts, dates and how to apply for ${best.program.name} (program_id ${best.program.program_id}).` })
}

export function afterDetails(output: { program: { category: string } }): NextStep[] {
  return steps(
    { tool: 'funding.eligibility_scan', why: 'Check the criteria this program asks against your business.' },
    output.program.category === 'apprenticeship' && { tool: 'hiring.apprentice_workflow', why: 'The steps and obligations of taking on an apprentice.' },
  )
}
