import Type from 'typebox'
import type { TSchema } from 'typebox'
import { DateTime, Dollars, StringEnum } from '../../core/schema-helpers.js'
import { closed, DateOnly } from '../shared-schema.js'

/** Value or null, the description on the union itself (where OpenAPI readers look). */
const Nullable = <T extends TSchema>(schema: T) =>
  Type.Union([schema, Type.Null()], { description: (schema as { description?: string }).description })

export const FREQUENCIES = ['weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly'] as const

// Money in and out as paid, incl. GST; cash on hand is a balance GST does not apply to.
const Money = (description: string) => Dollars('incl', { description })
const Cash = (description: string) => Dollars('none', { description })

// ---- recurring costs

export const RecurringCostSchema = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'What it is, e.g. "Van lease"' }),
  amount: Money('Amount paid each time'),
  frequency: StringEnum(FREQUENCIES, { description: 'How often it is paid' }),
  starts_on: Type.String({ format: 'date', description: 'First date it is paid (local date); later dates follow by the frequency' }),
  ends_on: Nullable(Type.String({ format: 'date', description: 'Last date it may fall on; set to the day of deactivation when deactivated' })),
  active: Type.Boolean(),
  next_on: Nullable(Type.String({ format: 'date', description: 'Next date it falls on, today included; null when it has ended' })),
  created_at: DateTime(),
  updated_at: DateTime(),
})

export const ListRecurringCostsInput = Type.Object(
  { include_inactive: Type.Optional(Type.Boolean({ default: false, description: 'Also list deactivated costs' })) },
  closed,
)
export const RecurringCostListResponse = Type.Object({ recurring_costs: Type.Array(RecurringCostSchema) })

export const CreateRecurringCostInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'What it is, e.g. "Van lease", "Public liability insurance"' }),
    amount: Dollars('incl', { exclusiveMinimum: 0, maximum: 1_000_000_000, description: 'Amount paid each time (at most two decimals)' }),
    frequency: StringEnum(FREQUENCIES, { description: 'How often it is paid' }),
    starts_on: Type.Optional(DateOnly('First date it is paid (YYYY-MM-DD, local); default today')),
    ends_on: Type.Optional(DateOnly('Last date it may fall on (YYYY-MM-DD); default none')),
  },
  closed,
)
export const RecurringCostResponse = Type.Object({ recurring_cost: RecurringCostSchema })
export const RecurringCostIdInput = Type.Object({ id: Type.String({ format: 'uuid', description: 'Recurring cost id' }) }, closed)

// ---- cashflow.forecast

export const ForecastInput = Type.Object(
  {
    opening_balance: Type.Optional(Dollars('none', { minimum: -1_000_000_000, maximum: 1_000_000_000, description: 'Cash on hand today, as the starting balance' })),
  },
  closed,
)

export const SourceSchema = Type.Object({
  type: StringEnum(['invoice', 'job', 'recurring_cost'] as const, { description: 'What the figure comes from' }),
  id: Type.String({ description: 'The invoice, job or recurring cost id' }),
  label: Type.String({ description: 'Invoice number, job title or cost name, with the client where there is one' }),
  date: Type.String({ format: 'date', description: 'Local date it is expected: due date (overdue: today), job date plus payment terms, or the cost date' }),
  amount: Money('Full amount: balance owed, job amount not yet invoiced, or the cost'),
  weight: Type.Number({ minimum: 0, maximum: 1, description: "Likelihood applied: the client's share of past invoices paid (1 for costs)" }),
  basis: Type.String({ description: 'How the weight and date were decided' }),
  expected: Money('amount x weight, rounded to the cent: what the bucket counts (money out for costs)'),
})

export const BucketSchema = Type.Object({
  week: Type.Integer({ minimum: 1, description: 'Week number from today (1 = today and the next 6 days)' }),
  from: Type.String({ format: 'date', description: 'First local date (inclusive)' }),
  to: Type.String({ format: 'date', description: 'Last local date (inclusive)' }),
  expected_in: Money('Expected receipts: invoices plus jobs'),
  from_invoices: Money('Expected from invoices owed'),
  from_jobs: Money('Expected from jobs not yet invoiced'),
  expected_out: Money('Recurring costs falling due'),
  net: Money('expected_in less expected_out'),
  closing_balance: Nullable(Cash('Balance at the end of the week from opening_balance; null without one')),
  sources: Type.Array(SourceSchema, { description: 'Every item counted in this week' }),
})

export const ForecastResponse = Type.Object({
  as_of: DateTime({ description: 'When the forecast was made' }),
  time_zone: Type.String({ description: 'The company time zone its dates are in' }),
  from: Type.String({ format: 'date', description: 'Today (local)' }),
  to: Type.String({ format: 'date', description: 'Last day forecast (today + 29)' }),
  currency: Type.Literal('AUD'),
  opening_balance: Nullable(Cash('Cash on hand given as the start')),
  default_weight: Type.Number({ description: 'Weight used for a client with no invoice history' }),
  payment_terms_days: Type.Integer({ description: "Days after a job's date its money is expected (the company's invoice payment terms)" }),
  weeks: Type.Array(BucketSchema, { description: 'The 30 days in weekly buckets (the last is 2 days)' }),
  totals: Type.Object({
    expected_in: Money('Sum of the weeks'),
    from_invoices: Money('Sum of the weeks'),
    from_jobs: Money('Sum of the weeks'),
    expected_out: Money('Sum of the weeks'),
    net: Money('expected_in less expected_out'),
    closing_balance: Nullable(Money('opening_balance plus net; null without an opening balance')),
  }),
})
