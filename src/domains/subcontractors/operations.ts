import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND, WRITE } from '../../core/planned.js'
import { DateTime, Dollars, StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, DateOnly, Id, Paging, Trade } from '../shared-schema.js'

const capability = 'Subcontractors and compliance'

export const subcontractorsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'subcontractors.list',
    title: 'List subcontractors',
    description:
      'List registered subcontractors with trade, contact details, licence and insurance details, status and availability. Filter by trade, status or availability.',
    input: Type.Object(
      {
        trade: Type.Optional(Trade('Only subcontractors of this trade')),
        status: Type.Optional(StringEnum(['pending', 'active', 'verified', 'suspended', 'deactivated'] as const, { description: 'Only subcontractors in this status' })),
        available: Type.Optional(Type.Boolean({ description: 'true for subcontractors currently available, false for unavailable' })),
        ...Paging,
      },
      closed,
    ),
    access: { scope: 'jobs', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'subcontractors.register',
    title: 'Register a subcontractor',
    description:
      'Register a subcontractor. They start as pending and cannot be dispatched until made active or verified with subcontractors.verify.',
    input: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200, description: 'Person or business name' }),
        trade: Trade('Their trade'),
        phone: Type.Optional(Type.String({ description: 'Mobile number; dispatches are sent to it by SMS' })),
        email: Type.Optional(Type.String({ format: 'email', description: 'Email address' })),
        abn: Type.Optional(Type.String({ pattern: '^\\d{2} ?\\d{3} ?\\d{3} ?\\d{3}$', description: 'Australian Business Number (11 digits)' })),
        licence_number: Type.Optional(Type.String({ description: 'Trade licence or registration number' })),
        licence_state: Type.Optional(AuState('State or territory that issued the licence')),
        insurance_expiry: Type.Optional(DateOnly('Public liability insurance expiry date (YYYY-MM-DD)')),
        hourly_rate: Type.Optional(Dollars('none', { minimum: 0, description: 'Agreed hourly rate' })),
        service_areas: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 100, description: 'Suburbs or postcodes they cover' })),
        notes: Type.Optional(Type.String({ maxLength: 2000, description: 'Notes' })),
      },
      closed,
    ),
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'subcontractors.dispatch',
    title: 'Dispatch a subcontractor',
    description:
      'Send a subcontractor to a job: texts them the job details by SMS and creates a dispatch record. The subcontractor must be active or verified.',
    input: Type.Object(
      {
        subcontractor_id: Id('Subcontractor to dispatch (status active or verified)'),
        job_id: Id('Job they are dispatched to'),
        scheduled_date: Type.Optional(DateTime({ description: "When they should attend; defaults to the job's scheduled date" })),
        message: Type.Optional(Type.String({ maxLength: 1000, description: 'Instructions added to the SMS' })),
      },
      closed,
    ),
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'subcontractors.verify',
    title: 'Verify or change a subcontractor',
    description:
      "Record a check of a subcontractor's licence and insurance and set the outcome: verify, activate, suspend or deactivate. Records a verification timestamp. Only active or verified subcontractors can be dispatched.",
    input: Type.Object(
      {
        subcontractor_id: Id('Subcontractor to verify or change'),
        action: Type.Optional(StringEnum(['verify', 'activate', 'suspend', 'deactivate'] as const, { default: 'verify', description: 'Outcome to apply' })),
        notes: Type.Optional(Type.String({ maxLength: 2000, description: 'What was checked, or why they were suspended or deactivated' })),
      },
      closed,
    ),
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
]
