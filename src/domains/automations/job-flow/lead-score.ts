// The rule set workflows.process_lead scores a lead with: deterministic, from the lead's own fields,
// each rule adding points with a reason the tool returns. Points (at most 100):
//   urgency word in the message or service type (emergency, urgent, asap, burst, leak, no power, ...) 40
//   service type given                                                                             15
//   an Australian mobile (it can be texted) 15; another phone number 10
//   an email address                                                                               10
//   a suburb or address (the job can be placed)                                                    10
//   a message of 30 characters or more (a described job)                                           10
// Priority from the score: 70+ Urgent, 50+ High, 25+ Normal, below Low.
import { isAuMobile } from '../../../core/phone.js'

export type Priority = 'Low' | 'Normal' | 'High' | 'Urgent'

export const URGENCY_WORDS = [
  'emergency', 'urgent', 'urgently', 'asap', 'immediately', 'today', 'tonight', 'burst', 'flooding', 'flooded', 'flood',
  'leak', 'leaking', 'no hot water', 'no power', 'sparking', 'gas smell', 'smell gas', 'blocked', 'overflowing', 'storm damage',
] as const

export interface LeadFields { phone: string | null; email: string | null; service_type: string | null; message: string | null; address: string | null; suburb: string | null }

export interface LeadScore { score: number; priority: Priority; reasons: string[] }

export function priorityFor(score: number): Priority {
  return score >= 70 ? 'Urgent' : score >= 50 ? 'High' : score >= 25 ? 'Normal' : 'Low'
}

export function scoreLead(lead: LeadFields): LeadScore {
  const reasons: string[] = []
  let score = 0
  const add = (points: number, reason: string) => { score += points; reasons.push(`+${points} ${reason}`) }
  const text = `${lead.message ?? ''} ${lead.service_type ?? ''}`.toLowerCase()
  const urgent = URGENCY_WORDS.find((w) => new RegExp(`(^|[^a-z])${w}([^a-z]|$)`).test(text))
  if (urgent) add(40, `urgency: the enquiry says "${urgent}"`)
  if (lead.service_type?.trim()) add(15, `service type given (${lead.service_type.trim()})`)
  if (lead.phone && isAuMobile(lead.phone)) add(15, 'Australian mobile number (can be texted)')
  else if (lead.phone) add(10, 'phone number')
  if (lead.email?.trim()) add(10, 'email address')
  if (lead.suburb?.trim() || lead.address?.trim()) add(10, 'suburb or address given')
  if ((lead.message?.trim().length ?? 0) >= 30) add(10, 'a described job (message of 30+ characters)')
  return { score, priority: priorityFor(score), reasons }
}
