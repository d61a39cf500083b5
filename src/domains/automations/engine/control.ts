// workflows.list and workflows.toggle: every automation of the catalogue with the company's choice
// (automation_settings, defaults where it chose nothing) and its latest runs (automation_runs).
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { validationError } from '../../../core/errors.js'
import { describeErrors, validatorFor } from '../../../core/validation.js'
import { withTenant } from '../../../db/sql.js'
import type { AutomationCatalogue, AutomationEntry } from './catalogue.js'
import { automationChoice } from './settings.js'
import { listLatestRuns } from './queries/runs.js'
import { findStoredSettings, lockAutomationSetting, upsertAutomationSetting } from './queries/settings.js'
import { withTenantEmitting } from '../../../core/reactions.js'
import { encodeOffsetCursor } from '../../../core/paging.js'
import { decodeOffsetCursor } from './cursor.js'
import type { ListWorkflowsInput, ToggleWorkflowInput, WorkflowSchema } from './control-schema.js'

type Workflow = Static<typeof WorkflowSchema>
const LAST_RUNS = 5

/** The automation named by its key or its tool name, or a validation_error listing the known ones. */
export function automationByRef(catalogue: AutomationCatalogue, ref: string, field = 'workflow_id'): AutomationEntry {
  const entry = catalogue.find(ref)
  if (!entry) throw validationError([`${field}: '${ref}' is not a workflow; use one of ${catalogue.keys.join(', ')} (see workflows.list)`])
  return entry
}

async function present(tx: postgres.TransactionSql, entries: AutomationEntry[]): Promise<Workflow[]> {
  if (!entries.length) return []
  const runs = await listLatestRuns(tx, entries.map((e) => e.key), LAST_RUNS)
  const out: Workflow[] = []
  for (const entry of entries) {
    const choice = await automationChoice(tx, entry)
    out.push({
      workflowId: entry.key, tool: entry.tool, title: entry.title, trigger: entry.trigger, action: entry.action,
      enabled: choice.enabled, requireApproval: choice.needsApproval, supportsApproval: entry.supportsApproval ?? false,
      settings: choice.settings as Record<string, unknown>, settingsSchema: JSON.parse(JSON.stringify(entry.settings)) as Record<string, unknown>,
      lastRuns: runs.filter((r) => r.automation === entry.key).map((r) => ({
        temporalWorkflowId: r.workflow_id, status: r.status, outcome: r.outcome, subjectType: r.subject_type, subjectId: r.subject_id,
        startedAt: r.started_at.toISOString(), finishedAt: r.finished_at?.toISOString() ?? null,
      })),
    })
  }
  return out
}

export async function listWorkflows(deps: Deps, catalogue: AutomationCatalogue, principal: Principal, input: Static<typeof ListWorkflowsInput>) {
  const limit = input.limit ?? 50
  const offset = decodeOffsetCursor(input.cursor)
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const matching: AutomationEntry[] = []
    for (const entry of catalogue.entries) {
      if (input.enabled === undefined || (await automationChoice(tx, entry)).enabled === input.enabled) matching.push(entry)
    }
    const page = matching.slice(offset, offset + limit)
    return {
      workflows: await present(tx, page),
      total: matching.length,
      limit,
      nextCursor: offset + limit < matching.length ? encodeOffsetCursor(offset + limit) : null,
    }
  })
}

/** The settings given, checked against the automation's schema; problems name settings.<field>. */
function checkedSettings(entry: AutomationEntry, given: Record<string, unknown>): Record<string, unknown> {
  const validator = validatorFor(entry.settings)
  const value = validator.Default(structuredClone(given)) as Record<string, unknown>
  if (!validator.Check(value)) {
    throw validationError(describeErrors(entry.settings, value).map((m) => (m.startsWith('body:') ? `settings${m.slice(4)}` : `settings.${m}`)))
  }
  return given
}

export async function toggleWorkflow(deps: Deps, catalogue: AutomationCatalogue, principal: Principal, input: Static<typeof ToggleWorkflowInput>) {
  const entry = automationByRef(catalogue, input.workflow_id)
  if (input.require_approval && !entry.supportsApproval) {
    throw validationError([`require_approval: ${entry.key} does not support approval (its actions always run at once); see supportsApproval in workflows.list`])
  }
  const settings = input.settings === undefined ? undefined : checkedSettings(entry, input.settings as Record<string, unknown>)
  return withTenantEmitting(deps, principal.companyId, async (tx, emit) => {
    // One change at a time per automation: the flip reads what the previous toggle wrote.
    await lockAutomationSetting(tx, principal.companyId, entry.key)
    const current = await automationChoice(tx, entry)
    const stored = await findStoredSettings(tx, entry.key)
    const nothingElse = input.require_approval === undefined && settings === undefined
    const enabled = input.enabled ?? (nothingElse ? !current.enabled : current.enabled)
    const needsApproval = input.require_approval ?? current.needsApproval
    const next = settings ?? stored?.settings ?? {}
    await upsertAutomationSetting(tx, { companyId: principal.companyId, automation: entry.key, enabled, needsApproval, settings: next, now: deps.clock.now() })
    const [workflow] = await present(tx, [entry])
    // The automation's own reactions follow the saved choice (the daily summary moves its Temporal Schedule).
    await emit({ companyId: principal.companyId, type: 'automation.toggled', entityType: 'automation', entityId: entry.key, payload: { key: entry.key }, at: deps.clock.now() })
    return { workflow: workflow! }
  })
}
