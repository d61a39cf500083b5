// The events a webhook can subscribe to: canonical dotted names (the REST list in SPEC.md section
// 6, plus quote.created and job.created, which the MCP list names), the MCP tool's underscore
// names as aliases, what each event's `data` holds, and which operations emit it. The OpenAPI
// `webhooks` section is built from this table; test/webhook-catalogue.test.ts checks the README's
// table against it and that every tool or route named in emittedBy reaches code recording the event.
import Type, { type TSchema } from 'typebox'
import { LeadSchema } from '../leads/schema.js'
import { QuoteSchema } from '../quotes/schema.js'
import { JobSchema } from '../jobs/schema.js'
import { InvoiceSchema, PaymentSchema } from '../invoicing/schema.js'
import { SubcontractorSchema, SUBCONTRACTOR_STATUSES } from '../subcontractors/schema.js'
import { Nullable, StringEnum } from '../../core/schema-helpers.js'

export interface WebhookEvent {
  name: string
  alias: string
  summary: string
  emittedBy: string[]
  data: TSchema
}

const leadData = Type.Object({ lead: LeadSchema, changed: Type.Optional(Type.Array(Type.String())), by: Type.Optional(Type.String()) })
const quoteData = Type.Object({ quote: QuoteSchema, resent: Type.Optional(Type.Boolean()) })
const jobData = Type.Object({ job: JobSchema })
const dispatchIds = { dispatch_id: Type.String(), job_id: Type.String() }
const offerData = Type.Object({ ...dispatchIds, offer_id: Type.String(), subcontractor_id: Type.String() })
const dispatchBy = ['subcontractors.dispatch (its run)']

export const WEBHOOK_EVENT_CATALOGUE: WebhookEvent[] = [
  { name: 'lead.created', alias: 'lead_created', summary: 'A lead was captured.', emittedBy: ['leads.create', 'POST /leads'], data: leadData },
  { name: 'lead.updated', alias: 'lead_updated', summary: 'A lead changed (the fields in `changed`).', emittedBy: ['leads.update', 'quotes.send and quote acceptance (status moves)', 'the instant response (New -> Contacted)'], data: leadData },
  { name: 'quote.created', alias: 'quote_created', summary: 'A Draft quote was created.', emittedBy: ['quotes.create'], data: quoteData },
  { name: 'quote.sent', alias: 'quote_sent', summary: 'A quote was sent (again, with `resent`).', emittedBy: ['quotes.send', 'quotes.update status Sent'], data: quoteData },
  { name: 'quote.accepted', alias: 'quote_accepted', summary: 'A quote was accepted.', emittedBy: ['the client on the public quote page', 'quotes.update status Accepted'], data: quoteData },
  { name: 'job.created', alias: 'job_created', summary: 'A job was created.', emittedBy: ['jobs.create'], data: jobData },
  { name: 'job.scheduled', alias: 'job_scheduled', summary: 'A job was booked or moved to a new date.', emittedBy: ['jobs.create with scheduled_date', 'jobs.update scheduled_date or status Scheduled'], data: jobData },
  { name: 'job.completed', alias: 'job_completed', summary: 'A job was completed.', emittedBy: ['jobs.complete', 'jobs.update status Completed'], data: jobData },
  {
    name: 'invoice.sent', alias: 'invoice_sent', summary: 'An invoice went to the client (`via`: sms, email, quote_page).',
    emittedBy: ['invoicing.generate with send_sms/send_email', 'POST /invoices/{id}/send', 'payments.send_link', 'quote acceptance issuing the deposit invoice'],
    data: Type.Object({ invoice: InvoiceSchema, via: Type.Array(Type.String()) }),
  },
  {
    name: 'payment.received', alias: 'payment_received', summary: 'A payment was recorded against an invoice.',
    emittedBy: ['the pay page (sandbox) or the processor webhook (Stripe)', 'POST /invoices/{id}/payments'],
    data: Type.Object({ payment: Type.Intersect([PaymentSchema, Type.Object({ excess: Type.Number() })]), invoice: InvoiceSchema }),
  },
  {
    name: 'dispatch.offered', alias: 'dispatch_offered', summary: 'A job was offered to a subcontractor (until `expires_at`).', emittedBy: dispatchBy,
    data: Type.Object({ ...dispatchIds, offer_id: Type.String(), subcontractor_id: Type.String(), position: Type.Integer(), expires_at: Type.String() }),
  },
  { name: 'dispatch.accepted', alias: 'dispatch_accepted', summary: 'A subcontractor accepted a job offer; the job is theirs.', emittedBy: ['the subcontractor on the offer page'], data: offerData },
  { name: 'dispatch.declined', alias: 'dispatch_declined', summary: 'A subcontractor declined a job offer.', emittedBy: ['the subcontractor on the offer page'], data: offerData },
  { name: 'dispatch.exhausted', alias: 'dispatch_exhausted', summary: 'Nobody took the job: every candidate declined, timed out or was no longer eligible.', emittedBy: dispatchBy, data: Type.Object({ ...dispatchIds, outcome: Type.String() }) },
  {
    name: 'subcontractor.verified', alias: 'subcontractor_verified', summary: 'A subcontractor moved to verified from another status (not on activate, nor on a re-check of a verified one).',
    emittedBy: ['subcontractors.verify'],
    data: Type.Object({ subcontractor: SubcontractorSchema, from_status: StringEnum(SUBCONTRACTOR_STATUSES), reason: Nullable(Type.String()) }),
  },
]

const byName = new Map(WEBHOOK_EVENT_CATALOGUE.flatMap((e) => [[e.name, e.name], [e.alias, e.name]] as const))

/** Every name a subscriber may give: canonical first, then the aliases. */
export const SUBSCRIBABLE_EVENT_NAMES = [...WEBHOOK_EVENT_CATALOGUE.map((e) => e.name), ...WEBHOOK_EVENT_CATALOGUE.map((e) => e.alias)]

/**
 * How tool descriptions name the events: the dotted names once, and one sentence for the other
 * spelling (listing both doubled the text and left an agent to guess which to use).
 */
export const EVENTS_TO_SUBSCRIBE = `${WEBHOOK_EVENT_CATALOGUE.map((e) => e.name).join(', ')} (use these dotted names; the underscore spelling, e.g. lead_created, is accepted as the same event, and deliveries always carry the dotted one)`

/** Canonical names for the given ones, or the unknown ones. */
export function canonicalEvents(names: string[]): { events: string[]; unknown: string[] } {
  const unknown = names.filter((n) => !byName.has(n))
  return { events: [...new Set(names.filter((n) => byName.has(n)).map((n) => byName.get(n)!))], unknown }
}

/** The envelope every delivery POSTs. */
export const WebhookEnvelope = (data: TSchema) => Type.Object({
  id: Type.String({ description: 'Event id (evt_...), the same on every retry: deduplicate on it (it is also webhook-id)' }),
  type: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  company_id: Type.String(),
  data,
})

/** The OpenAPI `webhooks` entries: each event with the body it POSTs. */
export function outboundEvents() {
  return WEBHOOK_EVENT_CATALOGUE.map((e) => ({ name: e.name, summary: `${e.summary} (alias ${e.alias})`, emittedBy: e.emittedBy, body: WebhookEnvelope(e.data) }))
}
