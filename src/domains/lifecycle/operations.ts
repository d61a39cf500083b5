import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars } from '../../core/schema-helpers.js'
import { closed } from '../shared-schema.js'

export const lifecyclePlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'lifecycle.assess',
    title: 'Assess business stage',
    description:
      "Assess which lifecycle stage the business is in (formation, survival, capacity, funding or scaling) from its own records (leads, jobs, revenue, cash flow) and any answers given, with the priorities for that stage and the advisory tools to use next.",
    input: Type.Object(
      {
        months_trading: Type.Optional(Type.Integer({ minimum: 0, maximum: 1200, description: 'Months since the business started trading' })),
        employees: Type.Optional(Type.Integer({ minimum: 0, description: 'People employed besides the owner' })),
        annual_revenue: Type.Optional(Dollars('none', { minimum: 0, description: 'Revenue over the last 12 months, if not all recorded here' })),
        goals: Type.Optional(Type.String({ maxLength: 1000, description: "The owner's goals, e.g. \"hire an apprentice this year\"" })),
      },
      closed,
    ),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability: 'Business advisory',
  }),
]
