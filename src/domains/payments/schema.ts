import Type from 'typebox'
import { DateTime, Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { Channel, DryRun, MessageOutputFields } from '../shared-schema.js'
import { InvoiceSchema } from '../invoicing/schema.js'

const closed = { additionalProperties: false } as const

export const SendLinkInput = Type.Object(
  {
    job_id: Type.String({ format: 'uuid', description: 'Job to collect payment for' }),
    amount: Type.Optional(Dollars('incl', { exclusiveMinimum: 0, description: "Must equal the balance of the job's oldest unpaid invoice (the link collects that); for another amount issue a progress claim first" })),
    channel: Type.Optional(Channel),
    message: Type.Optional(Type.String({ maxLength: 500, description: "The owner's note, sent as written after the greeting (a note with its own greeting replaces ours)" })),
    dry_run: DryRun,
  },
  closed,
)

export const SendLinkResponse = Type.Object({
  invoice: InvoiceSchema,
  payment_url: Type.String(),
  amount: Dollars('incl', { description: 'Balance the link collects' }),
  ...MessageOutputFields,
  delivery: Type.Object({
    workflow_id: Nullable(Type.String()),
    channels: Type.Array(StringEnum(['sms', 'email'] as const)),
    skipped: Type.Array(Type.String()),
  }),
})

export const PaymentAccountResponse = Type.Object({
  account: Type.Object({
    connected: Type.Boolean(),
    status: StringEnum(['not_connected', 'pending', 'active'] as const),
    provider: Type.String(),
    account_id: Nullable(Type.String()),
    charges_enabled: Type.Boolean(),
    onboarding_url: Nullable(Type.String({ description: "Where the owner finishes the processor's sign-up" })),
    connected_at: Nullable(DateTime()),
    next_step: Nullable(Type.String()),
  }),
})
