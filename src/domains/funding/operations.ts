import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Id, Trade } from '../shared-schema.js'

const capability = 'Business advisory'

export const fundingPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'funding.eligibility_scan',
    title: 'Funding eligibility scan',
    description:
      "Scan government grants, incentives and loans the business may be eligible for, from its records and the answers given. Each match shows the estimated amount, why it fits, criteria not yet met, whether it is open, and its source and as-of date. Details with funding.program_details.",
    input: Type.Object(
      {
        state: Type.Optional(AuState()),
        trade: Type.Optional(Trade()),
        annual_turnover: Type.Optional(Dollars('none', { minimum: 0, description: 'Annual turnover' })),
        employees: Type.Optional(Type.Integer({ minimum: 0, description: 'Number of employees' })),
        hiring_apprentice: Type.Optional(Type.Boolean({ description: 'Whether the business plans to take on an apprentice' })),
        exports: Type.Optional(Type.Boolean({ description: 'Whether the business sells or plans to sell overseas' })),
        categories: Type.Optional(
          Type.Array(StringEnum(['apprenticeship', 'small-business', 'export', 'digital', 'training'] as const), { uniqueItems: true, description: 'Only these program categories' }),
        ),
      },
      closed,
    ),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'funding.program_details',
    title: 'Funding program details',
    description: 'Full details of one funding program: who pays whom, amounts and instalments, eligibility rules, dates, whether it is open, how to apply, and its source and as-of date.',
    input: Type.Object({ program_id: Id('Program id from funding.eligibility_scan or formation.funding') }, closed),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
