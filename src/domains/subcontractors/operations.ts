import Type from 'typebox'
import { defineOperation, type AnyOperation } from '../../core/operation.js'
import { plannedTool, SEND } from '../../core/planned.js'
import { READ, WRITE } from '../../core/annotations.js'
import { DateTime } from '../../core/schema-helpers.js'
import { closed, Id } from '../shared-schema.js'
import { afterSubcontractorChange } from './next-steps.js'
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
    description: 'verify (runs the licence/ABN check), activate (from verified), suspend or deactivate; records who, when and why. Other moves are refused naming the allowed actions.',
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

const capability = 'Subcontractors and compliance'

export const subcontractorsPlannedTools: AnyOperation[] = [
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
]
