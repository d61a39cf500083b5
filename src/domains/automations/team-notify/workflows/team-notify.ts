// A notice to the team (workflows.team_notify): the recipients and texts were resolved by the API
// and are this workflow's input. With approval on, the action is recorded as pending and the
// workflow waits for approve_action, reject_action or the expiry (workflows/approval.ts); only an
// approval sends. Each message's idempotency key is the workflow id plus channel and recipient, so
// a retried activity, or a new worker replaying after a crash, never sends it twice.
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP, MESSAGE_SEND } from '../../../../../workflows/activity-options.js'
import { approvalGate, type PendingActionActivities } from '../../../../../workflows/approval.js'
import type { SendMessageActivities } from '../../../../../workflows/messages.js'

export interface TeamMessage {
  channel: 'sms' | 'email'
  to: string
  name: string | null
  subject?: string
  body: string
  text?: string
}

export interface TeamNotifyInput {
  companyId: string
  /** Made in the call's transaction: the workflow id and every message key come from it. */
  noticeId: string
  jobId: string | null
  summary: string
  messages: TeamMessage[]
  /** Set when the company holds team notices for approval; the expiry is policy, so tests use seconds. */
  approval: { actionId: string; expiresInMs: number } | null
}

export interface TeamNotifyOutcome {
  sent: { channel: string; to: string; status: string }[]
  failed: { channel: string; to: string; error: string }[]
}

export interface TeamNotifyResult {
  status: string
  outcome: TeamNotifyOutcome | null
}

/** One run per notice: a second start is the same notice. */
export const teamNotifyWorkflowId = (keys: Pick<TeamNotifyInput, 'companyId' | 'noticeId'>) => `team-notify:${keys.companyId}:${keys.noticeId}`

export interface TeamNotifyActivities extends PendingActionActivities, SendMessageActivities {
  /** Closes the notice's run record with its outcome. */
  finishTeamNotify(input: { companyId: string; workflowId: string; status: 'completed' | 'stopped' | 'failed'; outcome: string }): Promise<void>
}

const { recordPendingAction, settlePendingAction, finishTeamNotify } = proxyActivities<TeamNotifyActivities>(DATABASE_STEP)

const { sendMessage } = proxyActivities<TeamNotifyActivities>(MESSAGE_SEND)

async function send(input: TeamNotifyInput, workflowId: string): Promise<TeamNotifyOutcome> {
  const outcome: TeamNotifyOutcome = { sent: [], failed: [] }
  for (const m of input.messages) {
    try {
      const result = await sendMessage({
        companyId: input.companyId, channel: m.channel, messageType: 'team_notice', to: m.to, subject: m.subject, body: m.body, text: m.text,
        jobId: input.jobId ?? undefined, idempotencyKey: `${workflowId}:${m.channel}:${m.to}`,
      })
      if (result.status === 'not_sent') outcome.failed.push({ channel: m.channel, to: m.to, error: result.reason ?? 'not sent' })
      else outcome.sent.push({ channel: m.channel, to: m.to, status: result.status })
    } catch (error) {
      // One recipient failing (a refused number) must not stop the others.
      outcome.failed.push({ channel: m.channel, to: m.to, error: (error as Error).message })
    }
  }
  return outcome
}

function summarise(outcome: TeamNotifyOutcome): string {
  return `${outcome.sent.length} sent${outcome.failed.length ? `, ${outcome.failed.length} failed` : ''}`
}

export async function teamNotify(input: TeamNotifyInput): Promise<TeamNotifyResult> {
  const { workflowId } = workflowInfo()
  if (!input.approval) {
    const outcome = await send(input, workflowId)
    await finishTeamNotify({ companyId: input.companyId, workflowId, status: outcome.sent.length ? 'completed' : 'failed', outcome: summarise(outcome) })
    return { status: outcome.sent.length ? 'executed' : 'failed', outcome }
  }

  const { actionId } = input.approval
  // Before any await: a decision may arrive as soon as the action is listed.
  const gate = approvalGate(actionId)
  const pending = await recordPendingAction({
    companyId: input.companyId, actionId, automation: 'team_notify', workflowId, summary: input.summary,
    messages: input.messages.map((m) => ({ channel: m.channel, to: m.to, name: m.name, subject: m.subject ?? null, text: m.text ?? m.body })),
    expiresInMs: input.approval.expiresInMs,
  })
  const decision = await gate.awaitDecision(Date.parse(pending.expiresAt) - Date.now())

  if (decision.decision !== 'approve') {
    const status = decision.decision === 'reject' ? 'rejected' : 'expired'
    await settlePendingAction({ companyId: input.companyId, actionId, status, decidedAt: decision.decidedAt, decidedBy: decision.keyId, note: decision.note, outcome: null })
    await finishTeamNotify({ companyId: input.companyId, workflowId, status: 'stopped', outcome: status === 'rejected' ? 'rejected: nothing sent' : 'expired without a decision: nothing sent' })
    await gate.settle(status, null)
    return { status, outcome: null }
  }

  await settlePendingAction({ companyId: input.companyId, actionId, status: 'approved', decidedAt: decision.decidedAt, decidedBy: decision.keyId, note: decision.note, outcome: null })
  const outcome = await send(input, workflowId)
  const status = outcome.sent.length ? 'executed' : 'failed'
  await settlePendingAction({ companyId: input.companyId, actionId, status, decidedAt: decision.decidedAt, decidedBy: decision.keyId, note: decision.note, outcome })
  await finishTeamNotify({ companyId: input.companyId, workflowId, status: outcome.sent.length ? 'completed' : 'failed', outcome: `approved: ${summarise(outcome)}` })
  await gate.settle(status, outcome)
  return { status, outcome }
}
