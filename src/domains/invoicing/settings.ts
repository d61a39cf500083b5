// Invoicing settings per company: payment terms (14 days unless set), the deposit new quotes ask
// for, the card surcharge (off by default; never above the stated cost of card acceptance), the
// state the business trades in (the company's own, companies.state, shared with company.profile and
// /settings/company), and bank-transfer instructions printed on invoices.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { validationError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { percentOfCents } from '../../core/gst.js'
import { hasAtMostDecimals } from '../../core/money.js'
import type { UpdateInvoicingSettingsInput } from './schema.js'
import { findSettingsRow, upsertSettings, type InvoicingSettings } from './queries/settings.js'
import { writeCompanySettings } from '../onboarding/company-settings.js'

export type { InvoicingSettings }

export const DEFAULT_PAYMENT_TERMS_DAYS = 14

const DEFAULTS: InvoicingSettings = {
  payment_terms_days: DEFAULT_PAYMENT_TERMS_DAYS, default_deposit_percent: null, card_surcharge_percent: null,
  card_acceptance_cost_percent: null, state: null, payment_instructions: null,
}

const numberOrNull = (v: string | number | null) => (v === null ? null : Number(v))

export async function readSettings(tx: postgres.TransactionSql): Promise<InvoicingSettings> {
  const row = await findSettingsRow(tx)
  if (!row.stored) return { ...DEFAULTS, state: row.state }
  return {
    payment_terms_days: row.payment_terms_days!,
    default_deposit_percent: numberOrNull(row.default_deposit_percent),
    card_surcharge_percent: numberOrNull(row.card_surcharge_percent),
    card_acceptance_cost_percent: numberOrNull(row.card_acceptance_cost_percent),
    state: row.state,
    payment_instructions: row.payment_instructions,
  }
}

const twoDecimals = (v: number | null | undefined, field: string, problems: string[]) => {
  if (v !== null && v !== undefined && !hasAtMostDecimals(v, 2)) problems.push(`${field}: use at most two decimals`)
}

export async function getSettings(deps: Deps, principal: Principal) {
  return { settings: await withTenant(deps.db, principal.companyId, readSettings) }
}

export async function updateSettings(deps: Deps, principal: Principal, input: Static<typeof UpdateInvoicingSettingsInput>) {
  const problems: string[] = []
  input = { ...input }
  for (const f of ['default_deposit_percent', 'card_surcharge_percent', 'card_acceptance_cost_percent'] as const) {
    twoDecimals(input[f], f, problems)
    // Stored with two decimals: a positive value that rounds to 0.00 (5e-324, say) is not a percentage we can keep.
    const v = input[f]
    if (typeof v === 'number') {
      input[f] = Math.round(v * 100) / 100
      if (input[f] === 0) problems.push(`${f}: must be at least 0.01 (or null for none)`)
    }
  }
  if (problems.length) throw validationError(problems)
  const companyId = principal.companyId
  return withTenantEmitting(deps, companyId, async (tx, emit) => {
    const current = await readSettings(tx)
    const { state: _state, ...next } = { ...current, ...input }
    if (next.card_surcharge_percent !== null) {
      if (next.card_acceptance_cost_percent === null) {
        throw validationError(['card_surcharge_percent: state what card acceptance costs you (card_acceptance_cost_percent) first; a surcharge may not exceed that cost'])
      }
      if (next.card_surcharge_percent > next.card_acceptance_cost_percent) {
        throw validationError([`card_surcharge_percent: ${next.card_surcharge_percent}% is above your stated cost of card acceptance (${next.card_acceptance_cost_percent}%); a surcharge may not exceed it`])
      }
    }
    await upsertSettings(tx, companyId, next, deps.clock.now())
    // The company's one state: changed the way /settings/company changes it.
    if (input.state !== undefined && input.state !== current.state) await writeCompanySettings(tx, emit, companyId, { state: input.state }, deps.clock.now())
    return { settings: await readSettings(tx) }
  })
}

/** The card surcharge on an amount, half up to the cent (0 when off). */
export function surchargeCents(settings: InvoicingSettings, amountCents: number): number {
  return settings.card_surcharge_percent ? percentOfCents(amountCents, settings.card_surcharge_percent) : 0
}
