import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { AuState, BUSINESS_STRUCTURES, closed, Trade } from '../shared-schema.js'

const capability = 'Business advisory'
const access = { permission: 'read' } as const
const Structure = StringEnum(BUSINESS_STRUCTURES, { description: 'Business structure' })

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
    name: 'formation.funding',
    title: 'Startup funding and grants',
    description:
      'Government grants, incentives and loans for starting and growing a trade business, e.g. the Key Apprenticeship Program, Priority Hiring Incentive, Australian Apprenticeship Support Loan and Export Market Development Grants. Filter by category: apprenticeship, small-business, export, digital or training. Each shows amount, dates, whether open, source and as-of date; free.',
    input: Type.Object(
      {
        category: Type.Optional(StringEnum(['apprenticeship', 'small-business', 'export', 'digital', 'training'] as const, { description: 'Only programs in this category' })),
        state: Type.Optional(AuState('Include this state\'s programs as well as national ones')),
        trade: Type.Optional(Trade()),
        include_closed: Type.Optional(Type.Boolean({ default: false, description: 'Also list programs that are closed to new applications' })),
      },
      closed,
    ),
    access,
    cost: 'free',
    annotations: READ,
    capability,
  }),
]
