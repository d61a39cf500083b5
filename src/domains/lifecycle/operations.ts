import type { AnyOperation } from '../../core/operation.js'
import { defineOperation } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { assessLifecycle } from './assess.js'
import { afterAssess } from './next-steps.js'
import { AssessInput, AssessResponse } from './schema.js'

export const lifecycleOperations: AnyOperation[] = [
  defineOperation({
    name: 'lifecycle.assess',
    domain: 'lifecycle',
    title: 'Assess business stage',
    description:
      "Assess which lifecycle stage the business is in (formation, survival, capacity, funding or scaling) from its own records (payments, job and recurring costs, overdue invoices, jobs, leads) and any answers given, with the evidence, each stage's rule, what moves it to the next stage and the priorities for this one. " +
      'The stage rules are stated in the result. General information, not advice; read-only.',
    input: AssessInput,
    output: AssessResponse,
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => assessLifecycle(ctx.deps, ctx.principal!, input),
    nextSteps: afterAssess,
  }),
]
