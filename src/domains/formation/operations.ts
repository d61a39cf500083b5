import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars } from '../../core/schema-helpers.js'
import { AuState, closed, Trade } from '../shared-schema.js'

const capability = 'Business advisory'
const access = { permission: 'read' } as const
const Suburb = Type.String({ minLength: 1, description: 'Suburb or town' })
const Postcode = Type.String({ pattern: '^\\d{4}$', description: 'Four-digit Australian postcode' })

export const formationPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'formation.simulate_business',
    title: 'Simulate business finances',
    description:
      'Simulate month-by-month finances of a trade business from its rates, hours, staff and overheads: revenue, costs (including 12% super, payroll tax above the state threshold and workers compensation for staff), profit, cash flow and break-even month. Figures are estimates. Free.',
    input: Type.Object(
      {
        trade: Type.Optional(Trade()),
        state: Type.Optional(AuState()),
        hourly_rate: Type.Optional(Dollars('none', { minimum: 0, description: 'Charge-out rate per hour, e.g. 110' })),
        billable_hours_per_week: Type.Optional(Type.Number({ minimum: 0, maximum: 80, description: 'Billable hours per week per tradesperson' })),
        materials_markup_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 500, description: 'Markup on materials in percent' })),
        employees: Type.Optional(Type.Integer({ minimum: 0, maximum: 500, description: 'Employed tradespeople besides the owner' })),
        apprentices: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Apprentices' })),
        startup_costs: Type.Optional(Dollars('none', { minimum: 0, description: 'One-off startup costs (vehicle, tools, licences)' })),
        monthly_overheads: Type.Optional(Dollars('none', { minimum: 0, description: 'Fixed monthly costs (insurance, vehicle, phone, software)' })),
        months: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 12, description: 'Months to simulate' })),
      },
      closed,
    ),
    access,
    cost: 'free',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'formation.demand_hotspots',
    title: 'Demand hotspots',
    description:
      'Areas with strong demand for a trade, ranked: suburbs or regions with demand indicators (building activity, population growth, lead volume) and competition. Free.',
    input: Type.Object(
      {
        trade: Type.Optional(Trade()),
        state: Type.Optional(AuState('Only areas in this state or territory')),
        near_postcode: Type.Optional(Postcode),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'How many areas to return' })),
      },
      closed,
    ),
    access,
    cost: 'free',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'formation.location_score',
    title: 'Score a location',
    description:
      'Score a location from 0 to 100 for running a given trade business there, with the factors behind it (demand, competition, growth, travel distances). Free.',
    input: Type.Object(
      {
        suburb: Type.Optional(Suburb),
        postcode: Type.Optional(Postcode),
        state: Type.Optional(AuState()),
        trade: Type.Optional(Trade()),
      },
      closed,
    ),
    access,
    cost: 'free',
    annotations: READ,
    capability,
  }),
]
