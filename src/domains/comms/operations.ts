import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND } from '../../core/planned.js'
import { DateTime, StringEnum } from '../../core/schema-helpers.js'
import { closed, Id, Paging } from '../shared-schema.js'

const capability = 'Communications and reminders'
const Links = {
  lead_id: Type.Optional(Id('Lead to record the message against')),
  job_id: Type.Optional(Id('Job to record the message against')),
}

export const commsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'comms.list',
    title: 'List messages',
    description:
      'List SMS and email history with delivery status, newest first. Filter by channel, message type, delivery status, lead or date. Cursor-paginated.',
    input: Type.Object(
      {
        channel: Type.Optional(StringEnum(['sms', 'email'] as const, { description: 'Only this channel' })),
        message_type: Type.Optional(Type.String({ description: 'Only this message type, e.g. quote, invoice, reminder, eta, review_request, manual' })),
        delivery_status: Type.Optional(StringEnum(['queued', 'sent', 'delivered', 'failed', 'bounced'] as const, { description: 'Only messages in this delivery status' })),
        lead_id: Type.Optional(Id('Only messages to or about this lead')),
        since: Type.Optional(DateTime({ description: 'Only messages sent at or after this time' })),
        ...Paging,
      },
      closed,
    ),
    access: { scope: 'clients', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'comms.send_sms',
    title: 'Send an SMS',
    description:
      'Send an SMS to an Australian mobile number (04xx xxx xxx or +61 4xx xxx xxx) and record it in the message history. Counts toward the monthly SMS quota.',
    input: Type.Object(
      {
        to: Type.String({ minLength: 8, maxLength: 20, description: 'Australian mobile number, local or international form, e.g. 0412 345 678 or +61 412 345 678' }),
        message: Type.String({ minLength: 1, maxLength: 1600, description: 'Message text (long messages are sent as several SMS segments)' }),
        ...Links,
      },
      closed,
    ),
    access: { scope: 'clients', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'comms.send_email',
    title: 'Send an email',
    description: 'Send an email (HTML body supported) and record it in the message history. Counts toward the monthly email quota.',
    input: Type.Object(
      {
        to: Type.String({ format: 'email', description: 'Recipient email address' }),
        subject: Type.String({ minLength: 1, maxLength: 200, description: 'Subject line' }),
        body: Type.String({ minLength: 1, maxLength: 100000, description: 'Message body; HTML is supported' }),
        reply_to: Type.Optional(Type.String({ format: 'email', description: "Reply-to address; defaults to the company's email" })),
        ...Links,
      },
      closed,
    ),
    access: { scope: 'clients', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    capability,
  }),
]
