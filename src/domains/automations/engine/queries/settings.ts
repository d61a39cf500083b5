// Automation settings SQL (automation_settings: a company's choice per automation, none until its
// first toggle) and the company's message templates. Every function takes the tenant transaction.
import type postgres from 'postgres'

export interface AutomationSettingRow {
  enabled: boolean
  needs_approval: boolean
  settings: Record<string, unknown>
}

export async function findAutomationSetting(tx: postgres.TransactionSql, automation: string): Promise<AutomationSettingRow | undefined> {
  const [row] = await tx<AutomationSettingRow[]>`
    select enabled, needs_approval, settings from automation_settings where automation = ${automation}`
  return row
}

/** Holds the company's automation's settings until the transaction ends: one change at a time. */
export async function lockAutomationSetting(tx: postgres.TransactionSql, companyId: string, automation: string): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext(${`automation_settings:${companyId}:${automation}`}))`
}

export async function findStoredSettings(tx: postgres.TransactionSql, automation: string): Promise<{ settings: Record<string, unknown> } | undefined> {
  const [stored] = await tx<{ settings: Record<string, unknown> }[]>`select settings from automation_settings where automation = ${automation}`
  return stored
}

export interface AutomationSettingWrite {
  companyId: string
  automation: string
  enabled: boolean
  needsApproval: boolean
  settings: Record<string, unknown>
  now: Date
}

export async function upsertAutomationSetting(tx: postgres.TransactionSql, s: AutomationSettingWrite): Promise<void> {
  await tx`
      insert into automation_settings (company_id, automation, enabled, needs_approval, settings, updated_at)
      values (${s.companyId}, ${s.automation}, ${s.enabled}, ${s.needsApproval}, ${tx.json(s.settings as postgres.JSONValue)}, ${s.now})
      on conflict (company_id, automation) do update
      set enabled = excluded.enabled, needs_approval = excluded.needs_approval, settings = excluded.settings, updated_at = excluded.updated_at`
}

/** The company's own template under this key, if it wrote one. */
export async function findMessageTemplate(tx: postgres.TransactionSql, key: string): Promise<{ subject: string | null; body: string } | undefined> {
  const [row] = await tx<{ subject: string | null; body: string }[]>`select subject, body from message_templates where key = ${key}`
  return row
}
