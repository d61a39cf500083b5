import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { AuState, BUSINESS_STRUCTURES, closed, Trade } from '../shared-schema.js'

const capability = 'Business advisory'
const access = { permission: 'read' } as const
const Structure = StringEnum(BUSINESS_STRUCTURES, { description: 'Business structure' })
const Suburb = Type.String({ minLength: 1, description: 'Suburb or town' })
const Postcode = Type.String({ pattern: '^\\d{4}$', description: 'Four-digit Australian postcode' })

export const formationPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'formation.guided_setup',
    title: 'Guided business setup',
    description:
      'Step-by-step plan to set up a trade business in an Australian state, from the answers given: ABN, structure, business name (ASIC), GST (register within 21 days of reaching $75,000 turnover), trade licence and insurance, PAYG withholding before first wages, and record keeping. Advice with sources and as-of dates; nothing is registered. Free.',
    input: Type.Object(
      {
        trade: Type.Optional(Trade()),
        state: Type.Optional(AuState('State or territory where the business will operate')),
        structure: Type.Optional(Structure),
        has_abn: Type.Optional(Type.Boolean({ description: 'Whether the owner already has an ABN' })),
        expected_annual_turnover: Type.Optional(Dollars('none', { minimum: 0, description: 'Expected turnover for the first year' })),
        plans_employees: Type.Optional(Type.Boolean({ description: 'Whether staff or apprentices will be hired in the first year' })),
      },
      closed,
    ),
    access,
    cost: 'free',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'formation.recommend_trade',
    title: 'Recommend a trade',
    description:
      "Recommend trades to start a business in, ranked by fit with the person's skills, qualifications and budget, local demand, startup cost and the licensing path in their state. Free.",
    input: Type.Object(
      {
        skills: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 30, description: 'Skills and experience, e.g. "welding", "customer service"' })),
        qualifications: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 30, description: 'Qualifications or licences held, e.g. "Cert III Plumbing", "White Card"' })),
        state: Type.Optional(AuState()),
        startup_budget: Type.Optional(Dollars('none', { minimum: 0, description: 'Money available to start' })),
        preferences: Type.Optional(Type.String({ maxLength: 1000, description: 'Anything else, e.g. "prefer indoor work", "no heights"' })),
      },
      closed,
    ),
    access,
    cost: 'free',
    annotations: READ,
    capability,
  }),
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
    name: 'formation.requirements',
    title: 'Licences and registrations required',
    description:
      'Licences, registrations and insurance a trade needs in a state: the regulator (e.g. Building Commission NSW, QBCC, Energy Safe Victoria), licence and home-warranty insurance thresholds, ARCtick licences for refrigeration and air conditioning, and the White Card (CPCWHS1001). Each figure carries its source and as-of date; free.',
    input: Type.Object(
      {
        trade: Type.Optional(Trade()),
        state: Type.Optional(AuState()),
        structure: Type.Optional(Structure),
        residential: Type.Optional(Type.Boolean({ default: true, description: 'Whether the business will do residential work (home-warranty insurance rules)' })),
      },
      closed,
    ),
    access,
    cost: 'free',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'formation.checklist',
    title: 'Setup checklist',
    description:
      'Checklist of every task to set up and run a trade business legally, grouped by registration, tax, licensing, insurance, employment and operations, each with when it is due (e.g. BAS quarterly on 28 Oct, 28 Feb, 28 Apr and 28 Jul; keep records 5 years). Free.',
    input: Type.Object(
      {
        trade: Type.Optional(Trade()),
        state: Type.Optional(AuState()),
        structure: Type.Optional(Structure),
        plans_employees: Type.Optional(Type.Boolean({ description: 'Include employer tasks (PAYG withholding, Single Touch Payroll, super, workers compensation)' })),
        registered_for_gst: Type.Optional(Type.Boolean({ description: 'Whether the business is registered for GST' })),
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
