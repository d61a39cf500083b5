import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, WRITE } from '../../core/planned.js'
import { closed, Id, Trade } from '../shared-schema.js'

const capability = 'Operator and integrations'
const Days = Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'Lookback period in days (default 30)' }))

export const operatorPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'operator.switch_company',
    title: 'Switch company',
    description:
      "For operators running several trade businesses: choose which company in the operator's portfolio later calls act on. Only companies in the portfolio (see operator.get_portfolio) can be chosen.",
    input: Type.Object({ company_id: Id('Company to switch to') }, closed),
    access: { permission: 'admin' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'operator.get_portfolio',
    title: 'Operator portfolio',
    description: "List the companies in the operator's portfolio with trade, plan and headline figures (revenue, open jobs, outstanding invoices), marking the active one.",
    input: Type.Object({}, closed),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'operator.get_shared_suppliers',
    title: 'Shared suppliers',
    description: "Suppliers used by more than one company in the operator's portfolio, with spend per company, to spot bulk-buying and account-pricing savings.",
    input: Type.Object(
      {
        trade: Type.Optional(Trade('Only suppliers for this trade')),
        days: Days,
      },
      closed,
    ),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'operator.dashboard',
    title: 'Portfolio dashboard',
    description: "KPIs across the operator's portfolio, per company and combined: revenue, outstanding invoices, leads, conversion, jobs scheduled and completed.",
    input: Type.Object({ days: Days }, closed),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
