import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { closed, Paging } from './shared.js'

export const clientsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'clients.list',
    title: 'List clients',
    description:
      'List clients: leads with at least one job, each with contact details, job count, quote count and total revenue in AUD. Filter by text. Cursor-paginated.',
    input: Type.Object(
      {
        search: Type.Optional(Type.String({ minLength: 1, description: 'Text to find in the name, email, phone or address' })),
        ...Paging,
      },
      closed,
    ),
    access: { scope: 'clients', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability: 'Quotes, jobs and clients',
  }),
]
