import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, SEND } from '../../core/planned.js'
import { Dollars } from '../../core/schema-helpers.js'
import { Channel, closed, Id } from '../shared-schema.js'

export const paymentsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'payments.send_link',
    title: 'Send a payment link',
    description:
      "Send the job's client a link to pay online, by SMS and/or email. Requires job_id and an active connected payment account (payment processor). Defaults to the job's outstanding invoice amount.",
    input: Type.Object(
      {
        job_id: Id('Job to collect payment for'),
        amount: Type.Optional(Dollars({ exclusiveMinimum: 0, description: 'Amount to request in AUD dollars, e.g. a deposit; defaults to the amount outstanding' })),
        channel: Type.Optional(Channel),
        message: Type.Optional(Type.String({ maxLength: 500, description: 'Text sent with the link' })),
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    capability: 'Invoicing, payments and cash flow',
  }),
]
