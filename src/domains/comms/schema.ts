import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { closed, DryRun, MessageOutputFields } from '../shared-schema.js'
import { MARKETING_MESSAGE_TYPES } from './spam-act.js'

/** Delivery statuses, in the order a message moves through them (see docs/decisions.md). */
export const DELIVERY_STATUSES = ['queued', 'recorded', 'sent', 'delivered', 'failed', 'undelivered', 'received'] as const

/** What comms.send_sms / send_email may say a message is: 'manual' (transactional) or a marketing type. */
export const SENDABLE_TYPES = ['manual', ...MARKETING_MESSAGE_TYPES] as const

const Uuid = (description: string) => Type.String({ format: 'uuid', description })

export const MessageSchema = Type.Object({
  id: Type.String(),
  channel: StringEnum(['sms', 'email'] as const),
  direction: StringEnum(['outbound', 'inbound'] as const),
  messageType: Type.String({ description: 'quote, invoice, eta, instant_response, reminder, manual, marketing, review_request, reply, ...' }),
  marketing: Type.Boolean({ description: 'A marketing message under the Spam Act 2003: it carries the business identification and an opt-out' }),
  to: Type.String({ description: 'E.164 number or email address' }),
  from: Nullable(Type.String()),
  subject: Nullable(Type.String()),
  body: Type.String({ description: 'The message as sent (email: the HTML part)' }),
  status: StringEnum(DELIVERY_STATUSES, {
    description: 'queued: waiting to go or waiting at the SMS gateway; recorded: kept in the local outbox only (no provider configured), nobody received it; ' +
      'sent: handed to the carrier / accepted by the mail server; delivered: the carrier confirmed the handset got it; ' +
      'failed / undelivered: it did not arrive, or it was not sent (see error); received: an inbound reply',
  }),
  error: Nullable(Type.String({ description: 'Why it failed or was not sent (monthly limit, opted out, provider refusal)' })),
  provider: Type.String({ description: 'local-outbox, twilio or smtp' }),
  providerStatus: Nullable(Type.String({ description: "The provider's own last status word, e.g. Twilio's 'undelivered'" })),
  leadId: Nullable(Type.String()),
  jobId: Nullable(Type.String()),
  quoteId: Nullable(Type.String()),
  invoiceId: Nullable(Type.String()),
  createdAt: DateTime(),
  sentAt: Nullable(DateTime({ description: 'When it was handed to the provider' })),
  statusUpdatedAt: Nullable(DateTime()),
})

export const ListMessagesInput = Type.Object(
  {
    channel: Type.Optional(StringEnum(['sms', 'email'] as const, { description: 'Only this channel' })),
    message_type: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Only this message type, e.g. quote, invoice, reminder, eta, review_request, manual, marketing' })),
    delivery_status: Type.Optional(StringEnum(DELIVERY_STATUSES, { description: 'Only messages in this delivery status' })),
    lead_id: Type.Optional(Uuid('Only messages to or about this lead')),
    job_id: Type.Optional(Uuid('Only messages about this job')),
    since: Type.Optional(DateTime({ description: 'Only messages created at or after this time' })),
    ...PagingInput,
  },
  closed,
)

export const MessageListResponse = Type.Object({ messages: Type.Array(MessageSchema), ...PageFields })

const Links = {
  lead_id: Type.Optional(Uuid('Lead to record the message against')),
  job_id: Type.Optional(Uuid('Job to record the message against (its lead is linked too)')),
}

const KindOfMessage = Type.Optional(StringEnum(SENDABLE_TYPES, {
  default: 'manual',
  description: "manual (default): transactional, e.g. one the client asked for. Promotions, offers, review or referral requests, follow-ups and upsells take their marketing type: the business's name, ABN and an opt-out (STOP reply, unsubscribe link) are added, and nobody who opted out gets it.",
}))

export const SendSmsInput = Type.Object(
  {
    to: Type.String({ minLength: 1, maxLength: 40, description: 'Australian mobile number, local or international form, e.g. 0412 345 678 or +61 412 345 678' }),
    message: Type.String({ minLength: 1, maxLength: 1600, description: 'Message text (long messages are sent as several SMS segments)' }),
    message_type: KindOfMessage,
    ...Links,
    dry_run: DryRun,
  },
  closed,
)

export const SendEmailInput = Type.Object(
  {
    to: Type.String({ format: 'email', maxLength: 254, description: 'Recipient email address' }),
    subject: Type.String({ minLength: 1, maxLength: 200, description: 'Subject line' }),
    body: Type.String({ minLength: 1, maxLength: 100000, description: 'Message body; HTML is supported (sanitised: no scripts, styles or forms). A plain-text part is derived from it' }),
    reply_to: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: "Reply-to address; defaults to the company's email" })),
    message_type: KindOfMessage,
    ...Links,
    dry_run: DryRun,
  },
  closed,
)

export const SendResponse = Type.Object({
  message: Type.Union([MessageSchema, Type.Null()], { description: 'The message as recorded; null on a dry run' }),
  ...MessageOutputFields,
  skipped: Type.Array(Type.String(), { description: 'Why nothing goes: the recipient opted out of marketing messages (Spam Act 2003)' }),
  delivery: Type.Object({
    workflow_id: Nullable(Type.String({ description: 'The delivery workflow; null when nothing is to be sent (the recipient opted out)' })),
  }),
})

export const ListOptOutsInput = Type.Object(
  {
    channel: Type.Optional(StringEnum(['sms', 'email'] as const, { description: 'Only this channel' })),
    include_opted_back_in: Type.Optional(Type.Boolean({ default: false, description: 'Also list numbers that opted back in (START), as the consent history' })),
    limit: PagingInput.limit,
    offset: PagingInput.offset,
  },
  closed,
)

export const OptOutListResponse = Type.Object({
  optOuts: Type.Array(Type.Object({
    channel: StringEnum(['sms', 'email'] as const),
    address: Type.String(),
    source: Type.String({ description: 'sms_keyword (a STOP reply) or email_unsubscribe (the unsubscribe link)' }),
    detail: Nullable(Type.String({ description: 'The keyword, or the message unsubscribed from' })),
    optedOutAt: DateTime(),
    optedBackInAt: Nullable(DateTime()),
    inForce: Type.Boolean({ description: 'true: marketing messages to this address are not sent' }),
  })),
  limit: Type.Integer(),
  offset: Type.Integer(),
  hasMore: Type.Boolean(),
})
