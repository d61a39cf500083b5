import { defineOperation } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { CreateLeadInput, CreateLeadResponse, LeadListResponse, LeadResponse, ListLeadsInput, UpdateLeadInput } from './schema.js'
import { createLead, listLeads, updateLead } from './service.js'

export const leadOperations = [
  defineOperation({
    name: 'leads.list',
    domain: 'leads',
    title: 'List leads',
    description: 'List leads (prospects) newest first, with contact details, status and priority. Filter by status (New, Contacted, Qualified, Quoted, Won, Lost) and priority (Low, Normal, High, Urgent). Page with cursor/nextCursor (or limit and offset; limit default 50, max 100).',
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
    description: 'Record a new lead (status New). Only name is required. Through MCP, source defaults to "mcp". A lead with an Australian mobile gets an instant SMS reply (and an email when it has an address) and moves to Contacted.',
    input: CreateLeadInput,
    output: CreateLeadResponse,
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: { ...WRITE, openWorldHint: true },
    rest: { method: 'POST', path: '/leads', status: 201, feature: 'restWrite' },
    run: (ctx, input) => createLead(ctx.deps, ctx.principal!, input, ctx.transport === 'mcp' ? 'mcp' : null),
  }),
  defineOperation({
    name: 'leads.update',
    domain: 'leads',
    title: 'Update a lead',
    description: 'Change a lead: only the fields you provide change (null clears an optional field). Status may be set to any of New, Contacted, Qualified, Quoted, Won, Lost.',
    input: UpdateLeadInput,
    output: LeadResponse,
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: { ...WRITE, idempotentHint: true },
    rest: { method: 'PATCH', path: '/leads/:lead_id', feature: 'restWrite' },
    run: (ctx, input) => updateLead(ctx.deps, ctx.principal!, input),
  }),
]
