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
      'Draft a Safe Work Method Statement (SWMS) for high-risk construction work: finds the high-risk construction work categories of the model WHS Regulations reg 291 in the work described (with the words that matched), ' +
      'and lists the work steps, hazards, controls in hierarchy-of-control order (elimination, substitution, isolation, engineering, administrative, PPE), PPE, emergency steps, the people and their sourced competencies (White Card; licences where our sourced data names them), ' +
      "and a review-and-sign block for a competent person with workers' sign-on lines (reg 299; Victoria uses OHS Regulations 2017 Part 5.1). " +
      "Steps, hazards and controls are worded by the configured language model or by the local default's rules and templates (produced_by says which; a model call counts toward the plan's monthly LLM limit); the DRAFT marking and the sign-off block are always kept. " +
      'Returns the draft as JSON and files it as a PDF document (document_type swms) with a signed link; the same draft again on the same day answers with that document. The draft must be reviewed, completed and signed by a competent person before work starts.',
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
