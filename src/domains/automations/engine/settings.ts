// A company's choices for one automation (automation_settings; the catalogue's defaults where the
// company chose nothing). The record of each run (automation_runs) is written by queries/runs.ts.
import type postgres from 'postgres'
import { validatorFor } from '../../../core/validation.js'
import type { AutomationEntry, SettingsOf } from './catalogue.js'
import { findAutomationSetting } from './queries/settings.js'

export interface AutomationChoice<S = Record<string, unknown>> {
  enabled: boolean
  needsApproval: boolean
  /** The automation's settings with its schema's defaults filled in. */
  settings: S
}

/** The company's choice for an automation, or its entry's defaults. Run inside withTenant. */
export async function automationChoice<E extends AutomationEntry>(tx: postgres.TransactionSql, entry: E): Promise<AutomationChoice<SettingsOf<E>>> {
  const row = await findAutomationSetting(tx, entry.key)
  const settings = validatorFor(entry.settings).Default(structuredClone(row?.settings ?? {})) as SettingsOf<E>
  return { enabled: row?.enabled ?? entry.enabledByDefault, needsApproval: row?.needs_approval ?? false, settings }
}
