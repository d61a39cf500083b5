// Inputs and outputs of the analytics tools. Every figure carries a description: the output schemas
// feed OpenAPI and tools/list, and an owner's agent reads them to know what each number means.
import Type from 'typebox'
import type { TSchema } from 'typebox'
import { DateTime, Dollars, StringEnum } from '../../core/schema-helpers.js'
import { closed, DateOnly } from '../shared-schema.js'
import { CALENDAR_PERIODS } from './window.js'

/** Value or null, the description on the union itself (where OpenAPI readers look). */
const Nullable = <T extends TSchema>(schema: T) =>
  Type.Union([schema, Type.Null()], { description: (schema as { description?: string }).description })

export const Money = (description: string) => Dollars('incl', { description })
export const MoneyExGst = (description: string) => Dollars('ex', { description })
export const GstMoney = (description: string) => Dollars('gst', { description })
export const Count = (description: string) => Type.Integer({ minimum: 0, description })
export const Rate = (description: string) => Nullable(Type.Number({ minimum: 0, description: `${description}; null when there is nothing to divide by` }))

export const Days = Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'Lookback period in days (default 30)' }))

const windowFields = {
  from: Type.String({ format: 'date', description: 'First local date of the window (inclusive), in the company time zone' }),
  to: Type.String({ format: 'date', description: 'Last local date of the window (inclusive)' }),
  time_zone: Type.String({ description: "The company's time zone the dates are in (companies.time_zone)" }),
  start: DateTime({ description: 'The instant the window starts (local midnight of from)' }),
  end: DateTime({ description: 'The instant the window ends (exclusive): now for a window ending today' }),
}
export const WindowSchema = Type.Object(windowFields, { description: 'The window the figures cover' })

// ---- analytics.financials / GET /financials

export const FinancialsInput = Type.Object({
  days: Days,
  period: Type.Optional(StringEnum(CALENDAR_PERIODS, {
    description: "A calendar period instead of days, in the company's time zone: this_month or this_quarter (calendar quarters, as BAS) from its first day up to now, last_month whole, this_fy from 1 July (the Australian financial year, July to June) up to now. Give days or period, not both",
  })),
}, closed)

export const FinancialsResponse = Type.Object({
  period: Type.Object({
    ...windowFields,
    days: Type.Integer({ description: 'Local days from from to to, both included (the lookback asked, or the length of the calendar period so far)' }),
    calendar: Type.Union([StringEnum(CALENDAR_PERIODS), Type.Null()], { description: 'The calendar period asked (this_month, last_month, this_quarter, this_fy); null for a lookback of days' }),
  }, { description: 'The window the period figures cover' }),
  as_of: DateTime({ description: 'When the figures were computed; outstanding and overdue are as of this moment' }),
  currency: Type.Literal('AUD', { description: 'Currency of every amount' }),
  revenue: Money('Payments received in the window and applied to invoices (card surcharges and excess taken by a processor left out)'),
  revenue_ex_gst: MoneyExGst('revenue less gst_collected'),
  gst_collected: GstMoney('The GST in revenue: each payment times its invoice\'s GST over its total, rounded half up to the cent (cash basis, as a BAS on the cash basis reports it)'),
  payments_received: Count('Number of payments received in the window'),
  invoiced: Money('Total of invoices (deposits, progress claims and final invoices; not credit notes) issued in the window and not void'),
  invoices_issued: Count('Number of invoices issued in the window and not void'),
  credited: Money('Total of credit notes (adjustment notes) issued in the window and not void'),
  credited_gst: GstMoney('The GST in credited: the GST of those credit notes (one eleventh of each, to the cent)'),
  credit_notes_issued: Count('Number of credit notes issued in the window and not void'),
  net_invoiced: Money('invoiced less credited'),
  outstanding: Money('Still owed now on invoices sent to clients (Sent, Partially Paid or Overdue): total less payments and credit notes'),
  outstanding_count: Count('Number of invoices with money still owed now'),
  overdue: Money('The part of outstanding past its due date now (due date before today in the company time zone, as the invoice list reads Overdue)'),
  overdue_count: Count('Number of overdue invoices now'),
  unsent_drafts: Money('Total of Draft invoices not yet sent to the client (not in outstanding)'),
  unsent_draft_count: Count('Number of Draft invoices not yet sent'),
  average_days_to_pay: Nullable(Type.Number({ description: 'Average local days from issue date to the last payment, over invoices fully paid in the window; null when none was' })),
  invoices_paid: Count('Number of invoices whose last payment, settling them, was received in the window (the basis of average_days_to_pay)'),
  cash_flow: Type.Object({
    in: Money('Money received in the window: payments applied to invoices plus card surcharges plus excess a processor took (to refund)'),
    out: Money('Money out in the window: job costs recorded plus recurring costs that fell due (refunds are made outside the service and are not recorded)'),
    net: Money('in less out'),
    surcharges: Money('Card surcharges received in the window (part of in)'),
    excess_to_refund: Money('Money a processor took beyond an invoice balance in the window, owed back to the client (part of in)'),
    job_costs: Money('Costs recorded against jobs in the window (part of out)'),
    recurring_costs: Money('Recurring costs (cashflow.list_recurring_costs) that fell due on a date in the window (part of out)'),
  }, { description: 'Cash in and out over the window' }),
})

// ---- analytics.detailed

export const DetailedInput = Type.Object(
  {
    from: Type.Optional(DateOnly('Start date (YYYY-MM-DD, local to the company time zone); default 90 days ago')),
    to: Type.Optional(DateOnly('End date (YYYY-MM-DD, inclusive); default today')),
    group_by: Type.Optional(StringEnum(['day', 'week', 'month'] as const, { default: 'week', description: 'Time bucket for the series' })),
  },
  closed,
)

const Stage = (what: string) => Type.Object({
  count: Count(`Leads created in the window that ${what}`),
  rate: Rate('count divided by the leads created in the window'),
})

export const FunnelSchema = Type.Object({
  leads: Count('Leads created in the window'),
  quoted: Stage('have at least one quote (any status)'),
  accepted: Stage('have an Accepted quote'),
  job: Stage('have a job that is not Cancelled'),
  paid: Stage('have a final invoice that is Paid'),
}, { description: 'Conversion lead -> quote -> accepted -> job -> paid. Each stage counts on its own (a job booked without a quote counts at job, not at quoted), so a later stage can exceed an earlier one.' })

export const GroupRow = Type.Object({
  key: Nullable(Type.String({ description: 'The service type, lead source or technician; null where none was recorded' })),
  leads: Count('Leads created in the window with this key (0 for technicians)'),
  quoted: Count('Of those, leads with a quote'),
  accepted: Count('Of those, leads with an Accepted quote'),
  paid: Count('Of those, leads with a Paid final invoice'),
  win_rate: Rate('Quotes created in the window and Accepted, divided by those created in the window and sent (not Draft)'),
  jobs_completed: Count('Jobs completed in the window'),
  average_job_value: Nullable(Money('Average amount of the jobs completed in the window that have an amount; null when none')),
  revenue: Money('Payments received in the window on invoices of this key'),
})

export const SeriesRow = Type.Object({
  period: Type.String({ format: 'date', description: 'First local date of the bucket (weeks start on Monday)' }),
  leads: Count('Leads created'),
  quotes_sent: Count('Quotes created and sent (not Draft)'),
  jobs_completed: Count('Jobs completed'),
  revenue: Money('Payments received'),
})

export const DetailedResponse = Type.Object({
  period: WindowSchema,
  currency: Type.Literal('AUD', { description: 'Currency of every amount' }),
  conversion: FunnelSchema,
  quotes: Type.Object({
    created: Count('Quotes created in the window'),
    sent: Count('Of those, sent (status other than Draft)'),
    accepted: Count('Of those, Accepted'),
    win_rate: Rate('accepted divided by sent'),
  }, { description: 'Quotes created in the window' }),
  revenue: Money('Payments received in the window'),
  jobs_completed: Count('Jobs completed in the window'),
  average_job_value: Nullable(Money('Average amount of the jobs completed in the window that have an amount; null when none')),
  by_service_type: Type.Array(GroupRow, { description: "By the lead's service type" }),
  by_source: Type.Array(GroupRow, { description: "By the lead's source" }),
  by_technician: Type.Array(GroupRow, { description: "By the job's technician (invoices without a job follow the job of their quote); lead counts are 0 and win_rate null, since technicians are assigned after a quote is won" }),
  series: Type.Array(SeriesRow, { description: 'The window in buckets of group_by, oldest first, empty buckets included' }),
})

// ---- analytics.dashboard

export const DashboardInput = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 7, description: 'Days of the headline figures (revenue, leads, jobs completed), compared with the days before (default 7)' })) },
  closed,
)

const DashJob = Type.Object({
  id: Type.String(), title: Type.String(), status: Type.String({ description: 'Job status' }),
  scheduledDate: DateTime({ description: 'Booking time' }),
  local_time: Type.String({ description: 'Booking time on the local clock, HH:mm' }),
  technician: Nullable(Type.String()), address: Nullable(Type.String()),
  clientName: Type.String({ description: "The lead's name" }), clientPhone: Nullable(Type.String()),
  amount: Nullable(Money('Job value')),
})

const Headline = (description: string, money: boolean) => Type.Object({
  current: money ? Money(`${description} in the last days`) : Count(`${description} in the last days`),
  previous: money ? Money(`${description} in the days before`) : Count(`${description} in the days before`),
}, { description })

export const DashboardResponse = Type.Object({
  as_of: DateTime({ description: 'When the dashboard was read' }),
  time_zone: Type.String({ description: 'The company time zone its dates are in' }),
  today: Type.String({ format: 'date', description: 'Local date today' }),
  tomorrow: Type.String({ format: 'date', description: 'Local date tomorrow' }),
  jobs_today: Type.Array(DashJob, { description: 'Jobs booked on the local date today (not Cancelled, nor completed on an earlier day), earliest first' }),
  jobs_tomorrow: Type.Array(DashJob, { description: 'Jobs booked tomorrow (not Cancelled, nor completed already), earliest first' }),
  overdue_invoices: Type.Object({
    count: Count('Overdue invoices'),
    total: Money('Owed on them'),
    items: Type.Array(Type.Object({
      id: Type.String(), invoiceNumber: Type.String(), clientName: Type.String(), balance: Money('Still owed'),
      dueDate: Type.String({ format: 'date' }), days_overdue: Count('Days past the due date'), jobId: Nullable(Type.String()),
    }), { description: 'Most overdue first, at most 20' }),
  }),
  new_leads: Type.Object({
    since: DateTime({ description: 'New means created after this instant: 24 hours before as_of' }),
    count: Count('Leads created in the last 24 hours'),
    items: Type.Array(Type.Object({
      id: Type.String(), name: Type.String(), status: Type.String(), priority: Type.String(), serviceType: Nullable(Type.String()),
      source: Nullable(Type.String()), phone: Nullable(Type.String()), createdAt: DateTime(),
    }), { description: 'Newest first, at most 20' }),
  }),
  quotes_waiting: Type.Object({
    count: Count('Quotes Sent or Viewed and still valid, waiting for the client'),
    total: Money('Their total'),
    items: Type.Array(Type.Object({
      id: Type.String(), quoteNumber: Type.String(), status: Type.String(), clientName: Type.String(), total: Money('Quote total'),
      sentAt: Nullable(DateTime()), validUntil: Type.String({ format: 'date' }), days_waiting: Nullable(Count('Days since it was sent')),
    }), { description: 'Longest waiting first, at most 20' }),
  }),
  reminders_due: Type.Object({
    count: Count('Reminders not done and due before the end of today (earlier ones still open included)'),
    items: Type.Array(Type.Object({
      id: Type.String(), title: Type.String(), dueAt: DateTime(), overdue: Type.Boolean({ description: 'Due before now' }),
      leadId: Nullable(Type.String()), jobId: Nullable(Type.String()),
    }), { description: 'Earliest first, at most 20' }),
  }),
  headline: Type.Object({
    days: Type.Integer({ description: 'Length of each period in days (now back)' }),
    revenue: Headline('Payments received', true),
    new_leads: Headline('Leads created', false),
    jobs_completed: Headline('Jobs completed', false),
  }, { description: 'The last `days` days against the `days` days before' }),
})

// ---- service://financials

export const FinancialsResource = Type.Object({
  financials: FinancialsResponse,
  conversion: FunnelSchema,
  invoice_status: Type.Array(Type.Object({
    status: Type.String({ description: 'Draft, Sent, Partially Paid, Overdue, Paid or Void (credit notes left out)' }),
    count: Count('Invoices in this status'),
    total: Money('Their total'),
    balance: Money('Still owed on them'),
  })),
})
