import type { AnyOperation } from '../../core/operation.js'
import { defineOperation } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { afterReadinessScore } from './next-steps.js'
import { readinessScore } from './readiness.js'
import { ReadinessInput, ReadinessResponse } from './schema.js'

export const scalingOperations: AnyOperation[] = [
  defineOperation({
    name: 'scaling.readiness_score',
    domain: 'scaling',
    title: 'Scaling readiness score',
    description:
      'Score from 0 to 100 how ready the business is to scale (another crew, a new area, new services or commercial work) from its own records over the last 24 months: revenue growth, margin after job and recurring costs, cash collected against overdue, lead win rate and completed jobs invoiced. ' +
      'Each factor shows its weight, its input and whether it came from your records or was assumed, and its points; then the gaps to close first. General information, not advice; read-only.',
    input: ReadinessInput,
    output: ReadinessResponse,
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => readinessScore(ctx.deps, ctx.principal!, input),
    nextSteps: afterReadinessScore,
  }),
]
