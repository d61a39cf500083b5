import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { CreateReminderInput, ListRemindersInput, ReminderListResponse, ReminderResponse, UpdateReminderInput } from './schema.js'
import { createReminder, listReminders, updateReminder } from './service.js'
import { afterReminderChange } from './next-steps.js'

export const reminderOperations = [
  defineOperation({
    name: 'reminders.create',
    domain: 'reminders',
    title: 'Create a reminder',
    description:
      "Create a reminder or follow-up for the team at a given time, optionally linked to a lead or a job. due_at takes an offset, or a local time read in the company's time zone. It fires at that time on a durable timer; with notify (sms, email or both) the owner is told then. Returns the due time in UTC and local time.",
    input: CreateReminderInput,
    output: ReminderResponse,
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'POST', path: '/reminders', status: 201, feature: 'restWrite' },
    run: (ctx, input) => createReminder(ctx.deps, ctx.principal!, input),
    nextSteps: afterReminderChange,
  }),
  defineOperation({
    name: 'reminders.list',
    domain: 'reminders',
    title: 'List reminders',
    description: 'List reminders and follow-ups sorted by due date, soonest first. Filter by lead, job, due range or completion (open by default; include_completed or completed_only).',
    input: ListRemindersInput,
    output: ReminderListResponse,
    access: { scope: 'leads', permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/reminders' },
    run: (ctx, input) => listReminders(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'reminders.update',
    domain: 'reminders',
    title: 'Change a reminder',
    description:
      'Mark a reminder done (done: true; it will not fire) or open again, or change its title, notes, notice channel or due time. A new due time moves its timer; one that already fired fires again at the new time.',
    input: UpdateReminderInput,
    output: ReminderResponse,
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: { ...WRITE, idempotentHint: true },
    beyondSpec: AGENT_PARITY,
    rest: { method: 'PATCH', path: '/reminders/:id', status: 200, feature: 'restWrite' },
    run: (ctx, input) => updateReminder(ctx.deps, ctx.principal!, input),
    nextSteps: afterReminderChange,
  }),
]
