// What follows a lead change (core/next-steps.ts): a new or live lead is quoted next.
import { realCallStep, steps, type NextStep } from '../../core/next-steps.js'

interface LeadResult { lead: { id: string; name: string; status: string } | null; dry_run?: boolean }

export function afterLeadChange(output: LeadResult): NextStep[] {
  if (output.dry_run) return [realCallStep('leads.create')]
  const lead = output.lead
  if (!lead || lead.status === 'Lost' || lead.status === 'Won') return []
  return steps(lead.status !== 'Quoted' && { tool: 'quotes.create', why: `Quote the work for ${lead.name} (lead_id ${lead.id}).` })
}
