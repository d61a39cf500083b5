import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Trade } from '../shared-schema.js'

const capability = 'Business advisory'
const access = { permission: 'read' } as const

export const formationPlannedTools: AnyOperation[] = [
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
