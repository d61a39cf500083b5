// Approval for the steps of the long-running automations (quote follow-ups, payment chase): when
// the company marked the automation "needs approval", the step's plan carries this, and the
// workflow holds the step in workflows.pending_actions (workflows/held-step.ts) instead of sending.
// The flag is read when each step is planned, so turning approval on or off applies from the next
// step of runs already under way.
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import type { AutomationEntry } from './catalogue.js'
import { automationChoice } from './settings.js'
import type { StepApproval } from '../../../../workflows/held-step.js'

const REAL_DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
const DEFAULT_EXPIRY_HOURS = 48

export type { StepApproval }

/**
 * The step's approval, or null when the company does not hold this automation for approval. The
 * window is approval_expiry_hours in the automation's own time: its policies count days of
 * AUTOMATION_DAY_MS, so with shortened days (tests, benches) an hour shrinks in proportion.
 */
export async function stepApproval(
  deps: Deps, tx: postgres.TransactionSql, entry: AutomationEntry, step: { summary: string; name: string | null },
): Promise<StepApproval | null> {
  const choice = await automationChoice(tx, entry)
  if (!choice.needsApproval) return null
  // Every automation that supports approval has approval_expiry_hours (catalogue.ts ApprovalExpiryHours).
  const hours = (choice.settings as { approval_expiry_hours?: number }).approval_expiry_hours ?? DEFAULT_EXPIRY_HOURS
  const expiresInMs = Math.max(1, Math.round((hours * HOUR_MS * deps.config.AUTOMATION_DAY_MS) / REAL_DAY_MS))
  return { expiresInMs, summary: step.summary, name: step.name }
}
