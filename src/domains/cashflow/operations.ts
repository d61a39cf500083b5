import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars } from '../../core/schema-helpers.js'
import { closed } from '../shared-schema.js'

export const cashflowPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'cashflow.forecast',
    title: 'Cash-flow forecast',
    description:
      'Forecast the next 30 days of cash flow with a weekly breakdown: expected receipts from invoices by due date and from scheduled jobs, against expected outgoings, with the projected balance each week. Read-only.',
    input: Type.Object(
      {
        opening_balance: Type.Optional(Dollars({ description: 'Cash on hand today in AUD dollars, as the starting balance' })),
        include_accepted_quotes: Type.Optional(Type.Boolean({ default: true, description: 'Count Accepted quotes not yet invoiced as expected income' })),
        weekly_outgoings: Type.Optional(Dollars({ minimum: 0, description: 'Regular weekly costs in AUD dollars (wages, rent, vehicles), if not recorded' })),
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability: 'Invoicing, payments and cash flow',
  }),
]
