import { afterLeadChange } from './next-steps.js'
import { defineOperation } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { CreateLeadInput, CreateLeadResponse, LeadListResponse, LeadResponse, ListLeadsInput, UpdateLeadInput } from './schema.js'
import { createLead, listLeads, updateLead } from './service.js'

export const leadOperations = [
  defineOperation({
    name: 'leads.list',
    domain: 'leads',
    title: 'List leads',
    description: 'List leads (prospects) newest first, with contact details, status and priority; filter by status or priority.',
    input: ListLeadsInput,
    output: LeadListResponse,
    access: { scope: 'leads', permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/leads' },
    run: (ctx, input) => listLeads(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'leads.create',
    domain: 'leads',
    title: 'Create a lead',
    description: 'Record a new lead (status New); only name is required; over MCP source defaults to "mcp". Side effects: an instant reply within 30 s, by SMS to an Australian mobile and by email, then status Contacted (automation instant_response, default on; workflows.toggle turns it off).',
    input: CreateLeadInput,
    output: CreateLeadResponse,
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: { ...WRITE, openWorldHint: true },
    rest: { method: 'POST', path: '/leads', status: 201, feature: 'restWrite' },
    run: (ctx, input) => createLead(ctx.deps, ctx.principal!, input, ctx.transport === 'mcp' ? 'mcp' : null),
    nextSteps: afterLeadChange,
  }),
  defineOperation({
    name: 'leads.update',
    domain: 'leads',
    title: 'Update a lead',
    description: 'Change a lead: only the fields you give change (null clears an optional field).',
    input: UpdateLeadInput,
    output: LeadResponse,
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: { ...WRITE, idempotentHint: true },
    rest: { method: 'PATCH', path: '/leads/:lead_id', feature: 'restWrite' },
    run: (ctx, input) => updateLead(ctx.deps, ctx.principal!, input),
    nextSteps: afterLeadChange,
  }),
]
