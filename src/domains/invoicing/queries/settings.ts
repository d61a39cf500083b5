// Invoicing settings SQL: one row per company (none until the first change; settings.ts fills the
// defaults). Numeric columns arrive as strings. The state is the company's own (companies.state,
// migration 024): read here with the settings, written through onboarding's writeCompanySettings.
import type postgres from 'postgres'

export interface InvoicingSettings {
  payment_terms_days: number
  default_deposit_percent: number | null
  card_surcharge_percent: number | null
  card_acceptance_cost_percent: number | null
  state: string | null
  payment_instructions: string | null
}

/** The company's state, and its settings row's columns (null when it has no row yet: `stored` false). */
export interface InvoicingSettingsRow {
  state: string | null
  stored: boolean
  payment_terms_days: number | null
  default_deposit_percent: string | null
  card_surcharge_percent: string | null
  card_acceptance_cost_percent: string | null
  payment_instructions: string | null
}

export async function findSettingsRow(tx: postgres.TransactionSql): Promise<InvoicingSettingsRow> {
  const [row] = await tx<InvoicingSettingsRow[]>`
    select c.state, s.company_id is not null as stored, s.payment_terms_days, s.default_deposit_percent, s.card_surcharge_percent,
           s.card_acceptance_cost_percent, s.payment_instructions
    from companies c left join invoicing_settings s on s.company_id = c.id`
  return row!
}

export async function upsertSettings(tx: postgres.TransactionSql, companyId: string, next: Omit<InvoicingSettings, 'state'>, now: Date): Promise<void> {
  await tx`
      insert into invoicing_settings (company_id, payment_terms_days, default_deposit_percent, card_surcharge_percent,
                                      card_acceptance_cost_percent, payment_instructions, updated_at)
      values (${companyId}, ${next.payment_terms_days}, ${next.default_deposit_percent}, ${next.card_surcharge_percent},
              ${next.card_acceptance_cost_percent}, ${next.payment_instructions}, ${now})
      on conflict (company_id) do update set
        payment_terms_days = excluded.payment_terms_days, default_deposit_percent = excluded.default_deposit_percent,
        card_surcharge_percent = excluded.card_surcharge_percent, card_acceptance_cost_percent = excluded.card_acceptance_cost_percent,
        payment_instructions = excluded.payment_instructions, updated_at = excluded.updated_at`
}
