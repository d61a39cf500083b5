// Quotes move their lead along: sent -> Quoted, accepted -> Won. Never backwards (a Won lead
// stays Won when another quote is sent), and each change is a lead.updated event.
import type postgres from 'postgres'
import { recordEvent } from '../../core/events.js'
import { findLead, presentLead, updateLeadRow } from '../leads/queries.js'
import type { LeadStatus } from '../leads/schema.js'

const ORDER: LeadStatus[] = ['New', 'Contacted', 'Qualified', 'Quoted', 'Won']

export async function markLeadStatus(tx: postgres.TransactionSql, companyId: string, leadId: string, status: 'Quoted' | 'Won', now: Date): Promise<void> {
  const lead = await findLead(tx, leadId, { forUpdate: true })
  // A Lost lead that comes back (a quote sent again, or accepted after all) moves forward too.
  if (!lead || (lead.status !== 'Lost' && ORDER.indexOf(lead.status) >= ORDER.indexOf(status))) return
  const after = await updateLeadRow(tx, leadId, { status }, now)
  await recordEvent(tx, { companyId, type: 'lead.updated', entityType: 'lead', entityId: leadId, at: now, payload: { lead: presentLead(after), changed: ['status'], by: 'quote' } })
}
