import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND, WRITE } from '../../core/planned.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { AuState, Channel, closed, Id } from '../shared-schema.js'

const capability = 'Invoicing, payments and cash flow'

export const invoicingPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'invoicing.generate',
    title: 'Generate an invoice',
    description:
      'Generate the invoice for a job (job_id required); the job must be Completed. Returns the invoice number, total in AUD and, when a payment-processor connected account is active, a payment URL.',
    input: Type.Object(
      {
        job_id: Id('Completed job to invoice'),
        due_in_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 90, default: 14, description: 'Days until payment is due (0 = due on receipt)' })),
        notes: Type.Optional(Type.String({ maxLength: 2000, description: 'Notes printed on the invoice, e.g. payment terms' })),
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'invoicing.chase',
    title: 'Chase overdue invoices',
    description:
      'Without jobId: lists overdue invoices with days overdue, chase level and total outstanding (nothing is sent). With jobId and tone: sends a payment reminder for that job\'s invoice. Tiers by days overdue: friendly at 7 or more days, firm at 14 or more, final at 30 or more.',
    input: Type.Object(
      {
        jobId: Type.Optional(Id('Job whose overdue invoice to chase; omit to list all overdue invoices')),
        tone: Type.Optional(
          StringEnum(['friendly', 'firm', 'final'] as const, {
            description: 'Reminder tone, used with jobId: friendly (7+ days overdue), firm (14+ days), final (30+ days)',
          }),
        ),
        channel: Type.Optional(Channel),
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'invoicing.recovery',
    title: 'Debt recovery options',
    description:
      "Recovery plan for invoices still unpaid after the final reminder: letter of demand, the state's small-claims forum and its limit (e.g. NSW Local Court Small Claims up to $20,000, QCAT minor debts up to $25,000) and Security of Payment Act options for construction work. Without job_id it covers every invoice 30+ days overdue; advice only, nothing is sent.",
    input: Type.Object(
      {
        job_id: Type.Optional(Id('Job whose unpaid invoice to plan recovery for; omit for all invoices 30+ days overdue')),
        state: Type.Optional(AuState("State or territory whose courts and tribunals apply; defaults to the company's state")),
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
