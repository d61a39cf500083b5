// What follows a lifecycle assessment: the tool for the stage's first priority.
import type { NextStep } from '../../core/next-steps.js'
import type { Stage } from './schema.js'

const STEP: Record<Stage, NextStep> = {
  formation: { tool: 'formation.guided_setup', why: 'Set the business up step by step: ABN, structure, licences, insurance.' },
  survival: { tool: 'cashflow.forecast', why: 'In survival cash comes first: see what is owed and when it should arrive.' },
  capacity: { tool: 'hiring.capacity_analysis', why: 'See whether your demand would keep a first employee or apprentice busy.' },
  funding: { tool: 'funding.eligibility_scan', why: 'Find the incentives and grants that could fund the next hire or step.' },
  scaling: { tool: 'scaling.readiness_score', why: 'Score readiness for the growth you plan, factor by factor.' },
}

export const afterAssess = (output: { stage: Stage }): NextStep[] => [STEP[output.stage]]
