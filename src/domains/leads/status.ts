// Automations move a lead's status on their own (instant response: New -> Contacted; quotes:
// sent -> Quoted, accepted -> Won). One place does it: lock the lead, check the move still
// applies, change it, and record lead.updated naming who moved it.
import type postgres from 'postgres'
import { recordEvent } from '../../core/events.js'
import { findLead, presentLead, updateLeadRow } from './queries.js'
import type { LeadStatus } from './schema.js'

export async function moveLeadStatus(
  tx: postgres.TransactionSql,
  move: { companyId: string; leadId: string; to: LeadStatus; by: string; at: Date; when: (current: LeadStatus) => boolean },
): Promise<boolean> {
  const lead = await findLead(tx, move.leadId, { forUpdate: true })
  if (!lead || !move.when(lead.status)) return false
  const after = await updateLeadRow(tx, move.leadId, { status: move.to }, move.at)
  await recordEvent(tx, {
    companyId: move.companyId, type: 'lead.updated', entityType: 'lead', entityId: move.leadId, at: move.at,
    payload: { lead: presentLead(after), changed: ['status'], by: move.by },
  })
  return true
}

const FORWARD: LeadStatus[] = ['New', 'Contacted', 'Qualified', 'Quoted', 'Won']

/** Forward only (a Won lead stays Won when another quote is sent); a Lost lead that comes back moves too. */
export const isBehind = (target: LeadStatus) => (current: LeadStatus) =>
  current === 'Lost' || FORWARD.indexOf(current) < FORWARD.indexOf(target)
