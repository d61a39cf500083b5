// Probe (temporary): answers one ping through an activity.
import { proxyActivities } from '@temporalio/workflow'
import { DATABASE_STEP } from '../../../../workflows/activity-options.js'

export interface ProbePingInput {
  companyId: string
  pingId: string
}

export const probePingWorkflowId = (keys: ProbePingInput) => `probe-ping:${keys.companyId}:${keys.pingId}`

export interface ProbePingActivities {
  answerPing(input: ProbePingInput): Promise<{ answered: boolean }>
}

const { answerPing } = proxyActivities<ProbePingActivities>(DATABASE_STEP)

export async function probePing(input: ProbePingInput): Promise<{ answered: boolean }> {
  return answerPing(input)
}
