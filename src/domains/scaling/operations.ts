import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { closed } from '../shared-schema.js'

export const scalingPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'scaling.readiness_score',
    title: 'Scaling readiness score',
    description:
      'Score how ready the business is to scale (another crew, a new area, new services or commercial work) from its margins, cash flow, demand, team and systems, with the gaps to close first.',
    input: Type.Object(
      {
        goal: Type.Optional(StringEnum(['add_crew', 'new_location', 'new_service', 'commercial_work'] as const, { description: 'The kind of growth planned' })),
        target_annual_revenue: Type.Optional(Dollars('none', { minimum: 0, description: 'Revenue target' })),
      },
      closed,
    ),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability: 'Business advisory',
  }),
]
