import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, WRITE } from '../../core/planned.js'
import { DateTime } from '../../core/schema-helpers.js'
import { closed, Id, Paging } from '../shared-schema.js'

const capability = 'Communications and reminders'

export const remindersPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'reminders.create',
    title: 'Create a reminder',
    description: 'Create a reminder or follow-up for the team at a given time, optionally linked to a lead or a job.',
    input: Type.Object(
      {
        title: Type.String({ minLength: 1, maxLength: 200, description: 'What to do, e.g. "Call back about hot water quote"' }),
        due_at: DateTime({ description: 'When the reminder is due (ISO 8601 with offset)' }),
        notes: Type.Optional(Type.String({ maxLength: 2000, description: 'Details' })),
        lead_id: Type.Optional(Id('Lead the reminder is about')),
        job_id: Type.Optional(Id('Job the reminder is about')),
      },
      closed,
    ),
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'reminders.list',
    title: 'List reminders',
    description: 'List reminders and follow-ups sorted by due date, soonest first. Filter by lead, job, due range or completion. Cursor-paginated.',
    input: Type.Object(
      {
        lead_id: Type.Optional(Id('Only reminders linked to this lead')),
        job_id: Type.Optional(Id('Only reminders linked to this job')),
        due_from: Type.Optional(DateTime({ description: 'Only reminders due at or after this time' })),
        due_to: Type.Optional(DateTime({ description: 'Only reminders due before this time' })),
        include_completed: Type.Optional(Type.Boolean({ default: false, description: 'Also include completed reminders' })),
        ...Paging,
      },
      closed,
    ),
    access: { scope: 'leads', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
