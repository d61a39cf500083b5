import Type from 'typebox'
import { defineOperation, type AnyOperation } from '../../core/operation.js'
import { READ, SEND, WRITE } from '../../core/annotations.js'
import { withTenant } from '../../db/sql.js'
import { messageViews } from '../comms/preview.js'
import { closed, DryRun, Id, RunMessageFields } from '../shared-schema.js'
import { afterDispatch, afterSubcontractorChange } from './next-steps.js'
import { startDispatch } from './dispatch.js'
import {
  ListSubcontractorsInput, RegisterSubcontractorInput, RegisterSubcontractorResponse, SubcontractorListResponse, VerifySubcontractorInput,
  VerifySubcontractorResponse,
} from './schema.js'
import { listSubcontractors, registerSubcontractor, verifySubcontractor } from './service.js'

export const subcontractorOperations = [
  defineOperation({
    name: 'subcontractors.list',
    domain: 'subcontractors',
    title: 'List subcontractors',
    description: 'List subcontractors newest first with licence, insurance and status; filter by trade, status, availability or area (suburb).',
    input: ListSubcontractorsInput,
    output: SubcontractorListResponse,
    access: { scope: 'jobs', permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/subcontractors' },
    run: (ctx, input) => listSubcontractors(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'subcontractors.register',
    domain: 'subcontractors',
    title: 'Register a subcontractor',
    description: 'Register a subcontractor (status pending). Licence/ABN go to the register check (default: recorded, not checked). An expiry within 30 days raises a reminder now, else one 30 days before.',
    input: RegisterSubcontractorInput,
    output: RegisterSubcontractorResponse,
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'POST', path: '/subcontractors', status: 201, feature: 'restWrite' },
    run: (ctx, input) => registerSubcontractor(ctx.deps, ctx.principal!, input),
    nextSteps: afterSubcontractorChange,
  }),
  defineOperation({
    name: 'subcontractors.verify',
    domain: 'subcontractors',
    title: 'Verify or change a subcontractor',
    description: 'verify (runs the licence/ABN check; refused, and recorded, if the register says expired or unknown), activate (from verified), suspend or deactivate; records who, when and why. Other moves are refused naming the allowed actions.',
    input: VerifySubcontractorInput,
    output: VerifySubcontractorResponse,
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'POST', path: '/subcontractors/:subcontractor_id/verify', feature: 'restWrite' },
    run: (ctx, input) => verifySubcontractor(ctx.deps, ctx.principal!, input),
    nextSteps: afterSubcontractorChange,
  }),
]

const DispatchInput = Type.Object(
  {
    job_id: Id('Job to offer'),
    subcontractor_id: Type.Optional(Id('Offer to this subcontractor only')),
    candidates: Type.Optional(Type.Array(Id('Subcontractor'), { minItems: 1, maxItems: 20, description: 'Offer in this order; default: every verified or active subcontractor' })),
    trade: Type.Optional(Type.String({ maxLength: 60, description: 'Only subcontractors with this trade' })),
    dry_run: DryRun,
  },
  closed,
)
const Excluded = Type.Array(Type.Object({ subcontractor_id: Type.String(), name: Type.String(), reason: Type.String() }), { description: 'Left out, with why (expired licence, suspended, ...)' })
const DispatchOutput = Type.Object({
  workflow_id: Type.Union([Type.String(), Type.Null()], { description: 'dispatch:<company>:<job>:<n>; null on a dry run' }),
  candidates: Type.Array(Type.Object({ subcontractor_id: Type.String(), name: Type.String() }), { description: 'Offered one at a time in this order' }),
  excluded: Excluded,
  held_for_approval: Type.Boolean({ description: "The company's dispatch_requires_approval is on: nothing is offered until the owner approves (workflows.approve_action)" }),
  pending_action_id: Type.Union([Type.String(), Type.Null()], { description: 'The action waiting for approval (workflows.pending_actions); null when offers go at once or on a dry run' }),
  ...RunMessageFields,
})

export const subcontractorsDispatchOperation = defineOperation({
  name: 'subcontractors.dispatch',
  domain: 'subcontractors',
  title: 'Dispatch a subcontractor',
  description: "Offer a job to eligible subcontractors one at a time (SMS/email with an accept/decline link); on decline or timeout the next is offered, until one accepts (set on the job) or nobody is left (owner reminded). With the company setting dispatch_requires_approval (company.update_profile) the first offer waits in workflows.pending_actions for approval.",
  input: DispatchInput,
  output: DispatchOutput,
  access: { scope: 'jobs', permission: 'write' },
  cost: 'write',
  annotations: SEND,
  rest: { method: 'POST', path: '/jobs/:job_id/dispatch', status: 201, feature: 'restWrite' },
  run: async (ctx, input) => {
    const r = await startDispatch(ctx.deps, ctx.principal!.companyId, input)
    const messages = r.dryRun ? await withTenant(ctx.deps.db, ctx.principal!.companyId, (tx) => messageViews(tx, r.messages)) : []
    return { workflow_id: r.workflowId, candidates: r.candidates.map((s) => ({ subcontractor_id: s.id, name: s.name })), excluded: r.excluded, held_for_approval: r.heldForApproval, pending_action_id: r.pendingActionId, dry_run: r.dryRun, messages }
  },
  nextSteps: afterDispatch,
})

export const subcontractorsPlannedTools: AnyOperation[] = []
