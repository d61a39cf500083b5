import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Id } from '../shared-schema.js'

const capability = 'Quotes, jobs and clients'

export const quotesPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'quotes.ai_price_suggestion',
    title: 'Suggest quote pricing',
    description:
      'Suggest line items and AUD prices for a job, from a lead or a job description. Suggestions only: nothing is saved. Returns suggested line items, adjustments for urgency, complexity and location, market context and confidence scores; pass the chosen items to quotes.create.',
    input: Type.Object(
      {
        lead_id: Type.Optional(Id("Lead whose service type, message and suburb describe the job (give this or job_description)")),
        job_description: Type.Optional(Type.String({ minLength: 3, maxLength: 5000, description: 'What the client needs done (give this or lead_id)' })),
        service_type: Type.Optional(Type.String({ description: 'Service type, e.g. "blocked drain", "switchboard upgrade"' })),
        suburb: Type.Optional(Type.String({ description: 'Suburb of the job site' })),
        state: Type.Optional(AuState('State or territory of the job site')),
        urgency: Type.Optional(StringEnum(['standard', 'urgent', 'emergency'] as const, { default: 'standard', description: 'How soon the work is needed; emergency means after-hours call-out' })),
        complexity: Type.Optional(StringEnum(['simple', 'standard', 'complex'] as const, { default: 'standard', description: 'Expected difficulty of the work' })),
      },
      closed,
    ),
    access: { scope: 'quotes', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
