import Type from 'typebox'
import { DateTime, Nullable, StringEnum, UPDATE_OPTIONS } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { closed, Id } from '../shared-schema.js'

export const NOTIFY_CHANNELS = ['sms', 'email', 'both'] as const
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[number]

/**
 * A date-time with an offset (read as given), or a local wall-clock time without one (read in the
 * company's time zone, GET /api/v1/settings/company). The calendar itself is checked by the service.
 */
export const DueAt = (description: string) => Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2})?$',
  maxLength: 40,
  description,
})

const Notify = StringEnum(NOTIFY_CHANNELS, {
  description: "Tell the owner when it falls due: sms (the company's mobile), email (its contact email) or both; leave out for no notice",
})

export const CreateReminderInput = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, description: 'What to do, e.g. "Call back about hot water quote"' }),
    due_at: DueAt(
      "When the reminder is due: ISO 8601 with an offset (2025-07-01T09:00:00+08:00), or a local time without one (2025-07-01T09:00), read in the company's time zone",
    ),
    notes: Type.Optional(Type.String({ maxLength: 2000, description: 'Details' })),
    lead_id: Type.Optional(Id('Lead the reminder is about')),
    job_id: Type.Optional(Id('Job the reminder is about')),
    notify: Type.Optional(Notify),
  },
  closed,
)

export const ListRemindersInput = Type.Object(
  {
    lead_id: Type.Optional(Id('Only reminders linked to this lead')),
    job_id: Type.Optional(Id('Only reminders linked to this job')),
    due_from: Type.Optional(DateTime({ description: 'Only reminders due at or after this time' })),
    due_to: Type.Optional(DateTime({ description: 'Only reminders due before this time' })),
    include_completed: Type.Optional(Type.Boolean({ default: false, description: 'Also include completed (done) reminders' })),
    completed_only: Type.Optional(Type.Boolean({ default: false, description: 'Only completed (done) reminders' })),
    ...PagingInput,
  },
  closed,
)

export const UpdateReminderInput = Type.Object(
  {
    id: Id('Reminder to change'),
    done: Type.Optional(Type.Boolean({ description: 'true marks it done (it will not fire); false opens it again' })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    due_at: Type.Optional(DueAt('New due time (offset or company-local, as for reminders.create); the timer moves, and a reminder that already fired fires again at the new time')),
    notify: Type.Optional(Nullable(Notify)),
  },
  UPDATE_OPTIONS,
)

export const ReminderSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  notes: Nullable(Type.String()),
  dueAt: DateTime({ description: 'Due time in UTC' }),
  dueAtLocal: Type.String({ description: "Due time on the company's clocks (YYYY-MM-DDTHH:mm:ss, no offset)" }),
  timeZone: Type.String({ description: "The company's time zone (IANA)" }),
  status: StringEnum(['pending', 'fired', 'done'] as const, { description: 'pending: not due yet; fired: fell due (the owner was told); done: completed' }),
  notify: Nullable(StringEnum(NOTIFY_CHANNELS)),
  leadId: Nullable(Type.String()),
  jobId: Nullable(Type.String()),
  lead: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  job: Nullable(Type.Object({ id: Type.String(), title: Type.String() })),
  firedAt: Nullable(DateTime()),
  doneAt: Nullable(DateTime()),
  timer: Nullable(Type.Object(
    { workflowId: Type.String({ description: 'Temporal workflow that fires it (filter by CompanyId in the Temporal UI)' }) },
    { description: 'null once done' },
  )),
  createdAt: DateTime(),
  updatedAt: DateTime(),
})

export const ReminderResponse = Type.Object({ reminder: ReminderSchema })
export const ReminderListResponse = Type.Object({ reminders: Type.Array(ReminderSchema), ...PageFields })
