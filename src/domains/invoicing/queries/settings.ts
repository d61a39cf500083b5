// Invoicing settings SQL: one row per company (none until the first change; settings.ts fills the
// defaults). Numeric columns arrive as strings.
import type postgres from 'postgres'

export interface InvoicingSettings {
  payment_terms_days: number
  default_deposit_percent: number | null
  card_surcharge_percent: number | null
  card_acceptance_cost_percent: number | null
  state: string | null
  payment_instructions: string | null
}

export type InvoicingSettingsRow = Omit<InvoicingSettings, 'default_deposit_percent' | 'card_surcharge_percent' | 'card_acceptance_cost_percent'> & Record<string, string | null>

export async function findSettingsRow(tx: postgres.TransactionSql): Promise<InvoicingSettingsRow | undefined> {
  const [row] = await tx<InvoicingSettingsRow[]>`
    select payment_terms_days, default_deposit_percent, card_surcharge_percent, card_acceptance_cost_percent, state, payment_instructions
    from invoicing_settings`
  return row
}

export async function upsertSettings(tx: postgres.TransactionSql, companyId: string, next: InvoicingSettings, now: Date): Promise<void> {
  await tx`
      insert into invoicing_settings (company_id, payment_terms_days, default_deposit_percent, card_surcharge_percent,
                                      card_acceptance_cost_percent, state, payment_instructions, updated_at)
      values (${companyId}, ${next.payment_terms_days}, ${next.default_deposit_percent}, ${next.card_surcharge_percent},
              ${next.card_acceptance_cost_percent}, ${next.state}, ${next.payment_instructions}, ${now})
      on conflict (company_id) do update set
        payment_terms_days = excluded.payment_terms_days, default_deposit_percent = excluded.default_deposit_percent,
        card_surcharge_percent = excluded.card_surcharge_percent, card_acceptance_cost_percent = excluded.card_acceptance_cost_percent,
        state = excluded.state, payment_instructions = excluded.payment_instructions, updated_at = excluded.updated_at`
}
