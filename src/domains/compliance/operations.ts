import { defineOperation, type AnyOperation, type McpAnnotations } from '../../core/operation.js'
import { afterSwmsDraft } from './next-steps.js'
import { SwmsInput, SwmsResponse } from './schema.js'
import { generateSwms } from './swms.js'

/** It files a PDF (a new document), so it is not read-only; the same draft again answers with that document. */
const FILES_A_DRAFT: McpAnnotations = { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false }

export const complianceOperations: AnyOperation[] = [
  defineOperation({
    name: 'compliance.generate_swms',
    domain: 'compliance',
    title: 'Draft a SWMS',
    description:
      "Draft a Safe Work Method Statement for high-risk construction work (model WHS Regulations reg 291): the categories found in the work described (with the matched words), steps, hazards, controls in hierarchy-of-control order, PPE, emergency steps, people and their sourced competencies, and a sign-off block for a competent person with workers' sign-on. " +
      "Worded by the configured language model or the local default (produced_by says which; a model call counts toward the monthly LLM limit); the DRAFT marking and the sign-off are always kept. " +
      'Files it as a PDF document (type swms) with a signed link; the same draft the same day returns that document. It must be reviewed and signed before work starts.',
    input: SwmsInput,
    output: SwmsResponse,
    // It files a document, as documents.auto_file does, so it needs the same permission and counts as a write.
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: FILES_A_DRAFT,
    rest: { method: 'POST', path: '/compliance/swms', status: 201, feature: 'restWrite' },
    run: (ctx, input) => generateSwms(ctx.deps, ctx.principal!, input),
    nextSteps: afterSwmsDraft,
  }),
]
