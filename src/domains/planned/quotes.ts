import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND, WRITE } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, DateOnly, Id, LineItems, Paging, QUOTE_STATUSES, SendEmail, SendSms } from './shared.js'

const capability = 'Quotes, jobs and clients'

export const quotesPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'quotes.list',
    title: 'List quotes',
    description:
      'List quotes, newest first, with quote number, status, line items, total, client name and linked lead. Filter by status (Draft, Sent, Viewed, Accepted, Declined, Expired) or lead. Cursor-paginated.',
    input: Type.Object(
      {
        status: Type.Optional(StringEnum(QUOTE_STATUSES, { description: 'Only quotes in this status' })),
        lead_id: Type.Optional(Id('Only quotes for this lead')),
        ...Paging,
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'quotes.create',
    title: 'Create a quote',
    description:
      'Create a quote for a lead from line items (description, quantity, unitPrice in AUD dollars); the total is the sum of quantity x unitPrice. Requires lead_id and at least one line item. The quote starts as Draft: send it with quotes.send.',
    input: Type.Object(
      {
        lead_id: Id('Lead the quote is for (see leads.list)'),
        line_items: LineItems('Line items of the quote, at least one'),
        title: Type.Optional(Type.String({ maxLength: 200, description: 'Short title, e.g. "Hot water system replacement"' })),
        notes: Type.Optional(Type.String({ maxLength: 5000, description: 'Notes, terms or exclusions shown on the quote' })),
        valid_until: Type.Optional(DateOnly('Date (YYYY-MM-DD) after which the quote expires')),
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'quotes.update',
    title: 'Update a quote',
    description:
      'Change a quote\'s status, line items or total; only the fields you provide change. line_items replaces all existing line items. Any status may be set directly (Draft, Sent, Viewed, Accepted, Declined, Expired).',
    input: Type.Object(
      {
        quote_id: Id('Quote to update'),
        status: Type.Optional(StringEnum(QUOTE_STATUSES, { description: 'New status' })),
        line_items: Type.Optional(LineItems('Replacement line items; the total is recalculated from them unless total is also given')),
        total: Type.Optional(Dollars({ minimum: 0, description: 'Quote total in AUD dollars' })),
        notes: Type.Optional(Type.String({ maxLength: 5000, description: 'Notes, terms or exclusions shown on the quote' })),
        valid_until: Type.Optional(DateOnly('Date (YYYY-MM-DD) after which the quote expires')),
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'quotes.send',
    title: 'Send a quote',
    description:
      'Send a quote to its client: creates a public shareable URL where the client can view and accept it, optionally texts and/or emails that link, and sets the status to Sent. When the client views or accepts it through the URL the status becomes Viewed or Accepted.',
    input: Type.Object(
      {
        quote_id: Id('Quote to send (normally a Draft)'),
        send_sms: SendSms,
        send_email: SendEmail,
        message: Type.Optional(Type.String({ maxLength: 1000, description: 'Personal note sent with the link' })),
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'quotes.ai_price_suggestion',
    title: 'Suggest quote pricing',
    description:
      'Suggest line items and AUD prices for a job, from a lead or a job description. Suggestions only: nothing is saved. Returns suggested line items, adjustments for urgency, complexity and location, market context and confidence scores; pass the chosen items to quotes.create.',
    input: Type.Object(
      {
        lead_id: Type.Optional(Id("Lead whose service type, message and suburb describe the job (give this or job_description)")),
        job_description: Type.Optional(Type.String({ minLength: 3, maxLength: 5000, description: 'What the client needs done (give this or lead_id)' })),
        service_type: Type.Optional(Type.String({ description: 'Service type, e.g. "blocked drain", "switchboard upgrade"' })),
        suburb: Type.Optional(Type.String({ description: 'Suburb of the job site' })),
        state: Type.Optional(AuState('State or territory of the job site')),
        urgency: Type.Optional(StringEnum(['standard', 'urgent', 'emergency'] as const, { default: 'standard', description: 'How soon the work is needed; emergency means after-hours call-out' })),
        complexity: Type.Optional(StringEnum(['simple', 'standard', 'complex'] as const, { default: 'standard', description: 'Expected difficulty of the work' })),
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
