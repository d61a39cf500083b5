import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { closed, DateOnly } from '../shared-schema.js'

const capability = 'Invoicing, payments and cash flow'
const access = { scope: 'financials', permission: 'read' } as const
const Days = Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'Lookback period in days (default 30)' }))

export const analyticsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'analytics.financials',
    title: 'Financial summary',
    description:
      'Financial summary over a lookback period (default 30 days): revenue, outstanding invoices and cash-flow metrics. The same summary as GET /financials.',
    input: Type.Object({ days: Days }, closed),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'analytics.detailed',
    title: 'Detailed analytics',
    description:
      'Detailed business analytics for a period: leads by source and status, conversion rates (lead to quote to job), quote acceptance rate, average job value, and revenue by service, technician and period.',
    input: Type.Object(
      {
        from: Type.Optional(DateOnly('Start date (YYYY-MM-DD); default 90 days ago')),
        to: Type.Optional(DateOnly('End date (YYYY-MM-DD, inclusive); default today')),
        group_by: Type.Optional(StringEnum(['day', 'week', 'month'] as const, { default: 'week', description: 'Time bucket for the series' })),
      },
      closed,
    ),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'analytics.dashboard',
    title: 'Business dashboard',
    description:
      'Headline KPIs for a dashboard: revenue, outstanding and overdue invoices, new leads, open quotes, jobs scheduled and completed, conversion rate and average review rating, each with the change from the previous period.',
    input: Type.Object({ days: Days }, closed),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
