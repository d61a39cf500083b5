import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { forecast } from './forecast.js'
import { afterRecurringCost } from './next-steps.js'
import { createRecurringCost, deactivateRecurringCost, listRecurringCosts } from './recurring-costs.js'
import {
  CreateRecurringCostInput, ForecastInput, ForecastResponse, ListRecurringCostsInput, RecurringCostIdInput, RecurringCostListResponse, RecurringCostResponse,
} from './schema.js'

const financials = (permission: 'read' | 'write') => ({ scope: 'financials' as const, permission })

export const cashflowOperations = [
  defineOperation({
    name: 'cashflow.forecast',
    domain: 'cashflow',
    title: 'Cash-flow forecast',
    description:
      "Forecast the next 30 days of cash flow in weekly buckets (local dates in the company time zone): expected receipts from invoices by due date (overdue ones this week) and from booked or completed jobs not yet invoiced (job date plus payment terms), each weighted by the client's payment history, against the recurring costs the company records (cashflow.list_recurring_costs), with the projected balance each week from an optional opening balance. Every figure lists its sources with the weight used. Read-only.",
    input: ForecastInput,
    output: ForecastResponse,
    access: financials('read'),
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => forecast(ctx.deps, ctx.principal!, input),
  }),
]

/** The recurring costs the forecast and GET /financials count: REST routes and tools (AGENT_PARITY). */
export const recurringCostOperations = [
  defineOperation({
    name: 'cashflow.list_recurring_costs', domain: 'cashflow', title: 'List recurring costs',
    description: 'Recurring costs the company records (rent, leases, insurance, wages), newest first, with the next date each falls due. Deactivated ones with include_inactive.',
    input: ListRecurringCostsInput, output: RecurringCostListResponse, access: financials('read'), cost: 'read', annotations: READ, beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/recurring-costs' },
    run: (ctx, input) => listRecurringCosts(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'cashflow.create_recurring_cost', domain: 'cashflow', title: 'Record a recurring cost',
    description: 'Record a cost paid on a schedule from starts_on (default today), counted as money out by cashflow.forecast and analytics.financials.',
    input: CreateRecurringCostInput, output: RecurringCostResponse, access: financials('write'), cost: 'write', annotations: WRITE, beyondSpec: AGENT_PARITY,
    rest: { method: 'POST', path: '/recurring-costs', status: 201, feature: 'restWrite' },
    run: (ctx, input) => createRecurringCost(ctx.deps, ctx.principal!, input),
    nextSteps: afterRecurringCost,
  }),
  defineOperation({
    name: 'cashflow.delete_recurring_cost', domain: 'cashflow', title: 'Remove a recurring cost',
    description: 'Deactivate a recurring cost: it no longer falls due after today (its past dates stay in past cash flow). Repeating it changes nothing.',
    input: RecurringCostIdInput, output: RecurringCostResponse, access: financials('write'), cost: 'write', annotations: { ...WRITE, idempotentHint: true, destructiveHint: true }, beyondSpec: AGENT_PARITY,
    rest: { method: 'DELETE', path: '/recurring-costs/:id', status: 200, feature: 'restWrite' },
    run: (ctx, input) => deactivateRecurringCost(ctx.deps, ctx.principal!, input.id),
  }),
]
