import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { ClientListResponse, ListClientsInput } from './schema.js'
import { listClients } from './service.js'

export const clientOperations = [
  defineOperation({
    name: 'clients.list',
    domain: 'clients',
    title: 'List clients',
    description: 'List clients: leads with at least one job, with contact details, job count, completed job count, quote count and total revenue (AUD, completed jobs). Filter by text.',
    input: ListClientsInput,
    output: ClientListResponse,
    access: { scope: 'clients', permission: 'read' },
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => listClients(ctx.deps, ctx.principal!, input, 'any_job'),
  }),
  defineOperation({
    name: 'clients.list_completed',
    domain: 'clients',
    title: 'List clients (REST)',
    description: 'List clients as the REST endpoint defines them: leads with at least one completed job, with job count, quote count and total revenue (AUD).',
    input: ListClientsInput,
    output: ClientListResponse,
    access: { scope: 'clients', permission: 'read' },
    cost: 'read',
    beyondSpec: AGENT_PARITY,
    annotations: READ,
    rest: { method: 'GET', path: '/clients' },
    run: (ctx, input) => listClients(ctx.deps, ctx.principal!, input, 'completed_job'),
  }),
]
