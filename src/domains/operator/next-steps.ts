// What follows an operator change (core/next-steps.ts).
import { steps, type NextStep } from '../../core/next-steps.js'

export function afterSwitch(output: { business_name: string; company_id: string }): NextStep[] {
  return steps({ tool: 'operator.get_portfolio', why: `Calls now act for ${output.business_name || output.company_id}; the portfolio marks it active.` })
}

export function afterAddMember(output: { email: string }): NextStep[] {
  return steps({ tool: 'operator.switch_company', why: `${output.email}'s keys can now switch to this company.` })
}
