// Instant response SQL: whether the company turned it off, and the company details its message
// fills in. Both take the tenant transaction from withTenant().
import type postgres from 'postgres'

/** The company's saved on/off for the automation; none when it never chose (on by default). */
export async function findEnabledSetting(tx: postgres.TransactionSql, automation: string): Promise<{ enabled: boolean } | undefined> {
  const [setting] = await tx<{ enabled: boolean }[]>`select enabled from automation_settings where automation = ${automation}`
  return setting
}

export async function findSender(tx: postgres.TransactionSql): Promise<{ business_name: string; phone: string | null } | undefined> {
  const [company] = await tx<{ business_name: string; phone: string | null }[]>`select business_name, phone from companies`
  return company
}
