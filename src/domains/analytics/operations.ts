import { defineOperation } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { dashboard } from './dashboard.js'
import { detailedAnalytics } from './detailed.js'
import { getFinancials, refuseDaysWithPeriod } from './financials.js'
import { DashboardInput, DashboardResponse, DetailedInput, DetailedResponse, FinancialsInput, FinancialsResponse } from './schema.js'

const access = { scope: 'financials', permission: 'read' } as const

export const analyticsOperations = [
  defineOperation({
    name: 'analytics.financials',
    domain: 'analytics',
    title: 'Financial summary',
    description:
      "Financial summary over a lookback of days (default 30) or a calendar period (period, in the company's time zone): revenue incl. GST with its GST split (revenue_ex_gst, gst_collected), invoiced and credited (with the credit notes' GST), outstanding invoices and cash-flow metrics.",
    input: FinancialsInput,
    precheck: (_ctx, raw) => refuseDaysWithPeriod(raw),
    output: FinancialsResponse,
    access,
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/financials' },
    run: (ctx, input) => getFinancials(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'analytics.detailed',
    domain: 'analytics',
    title: 'Detailed analytics',
    description:
      'Detailed business analytics for a period (from/to, local dates in the company time zone; default the last 90 days): conversion of the leads created in it (lead to quote to accepted to job to paid, with rates), quote win rate, average job value, and leads, win rate, jobs and revenue by service type, by lead source and by technician, plus a series by day, week or month.',
    input: DetailedInput,
    output: DetailedResponse,
    access,
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => detailedAnalytics(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'analytics.dashboard',
    domain: 'analytics',
    title: 'Business dashboard',
    description:
      "What an owner reads first thing: today's and tomorrow's jobs (local dates in the company time zone), overdue invoices, leads of the last 24 hours, quotes waiting for the client (Sent or Viewed), reminders due by the end of today, and headline revenue, leads and completed jobs for the last days against the days before.",
    input: DashboardInput,
    output: DashboardResponse,
    access,
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => dashboard(ctx.deps, ctx.principal!, input),
  }),
]
