// The company's own settings an agent may change after onboarding: its time zone, in
// which reminders' local times are read and shown, and its state or territory, whose public
// holidays decide the next business day (workflows.schedule_job, workflows.process_lead).
import Type from 'typebox'
import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { validationError } from '../../core/errors.js'
import { EmptyInput, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { AUSTRALIAN_TIME_ZONES, DEFAULT_TIME_ZONE } from '../../core/zoned-time.js'
import type postgres from 'postgres'
import { withTenant } from '../../db/sql.js'
import { withTenantEmitting, type Emit } from '../../core/reactions.js'
import { AU_STATES } from '../shared-schema.js'
import { findCompanySettings, updateCompanySettingsRow, type CompanySettingsRow } from './queries.js'
import { afterCompanySettings } from './next-steps.js'

const TimeZone = StringEnum(AUSTRALIAN_TIME_ZONES, { description: "The business's time zone (IANA), e.g. Australia/Perth; reminders' local times are read in it" })
const State = StringEnum(AU_STATES, { description: "The state or territory the business works in; its public holidays are skipped when scheduling by business day" })

const CompanySettingsResponse = Type.Object({
  settings: Type.Object({ time_zone: TimeZone, state: Nullable(State) }),
  available_time_zones: Type.Array(Type.String()),
  available_states: Type.Array(Type.String()),
})

/** Internal event (reactions only): the company's settings changed; payload the fields given, e.g. {time_zone}. */
export const CompanySettingsChanged = 'company.settings_changed'

const UpdateCompanySettingsInput = Type.Object(
  { time_zone: Type.Optional(TimeZone), state: Type.Optional(Nullable(State)) },
  { additionalProperties: false },
)

export type CompanySettingsChanges = { time_zone?: (typeof AUSTRALIAN_TIME_ZONES)[number]; state?: (typeof AU_STATES)[number] | null }

/**
 * The one way the company's time zone or state changes (here, company.update_profile, invoicing's
 * settings), in the caller's transaction: what runs on the company's clock follows it (the daily
 * summary's Temporal Schedule, after commit, reacting to the event).
 */
export async function writeCompanySettings(tx: postgres.TransactionSql, emit: Emit, companyId: string, changes: CompanySettingsChanges, at: Date): Promise<CompanySettingsRow> {
  const [updated] = await updateCompanySettingsRow(tx, companyId, changes)
  await emit({ companyId, type: CompanySettingsChanged, entityType: 'company', entityId: companyId, payload: changes, at })
  return updated!
}

const respond = (row: CompanySettingsRow) => ({ settings: { time_zone: row.time_zone, state: row.state }, available_time_zones: [...AUSTRALIAN_TIME_ZONES], available_states: [...AU_STATES] })

export const companySettingsOperations = [
  defineOperation({
    name: 'onboarding.company_settings', domain: 'onboarding', title: 'Company settings',
    description: `The company's settings: its time zone (${DEFAULT_TIME_ZONE} unless changed) and its state or territory (null until set).`,
    input: EmptyInput, output: CompanySettingsResponse, access: { permission: 'read' }, cost: 'read', annotations: READ, beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/settings/company' },
    run: async (ctx) => {
      const [row] = await withTenant(ctx.deps.db, ctx.principal!.companyId, findCompanySettings)
      return respond(row!)
    },
  }),
  defineOperation({
    name: 'onboarding.update_company_settings', domain: 'onboarding', title: 'Change company settings',
    description: "Change the company's time zone (one of Australia's IANA zones) and/or its state or territory (whose public holidays scheduling by business day skips). Reminders keep their instant; their local times are shown in the new zone.",
    input: UpdateCompanySettingsInput, output: CompanySettingsResponse, access: { permission: 'admin' }, cost: 'write', annotations: { ...WRITE, idempotentHint: true }, beyondSpec: AGENT_PARITY,
    rest: { method: 'PATCH', path: '/settings/company', status: 200, feature: 'restWrite' },
    run: async (ctx, input) => {
      const changes: CompanySettingsChanges = {}
      if (input.time_zone !== undefined) changes.time_zone = input.time_zone
      if (input.state !== undefined) changes.state = input.state
      if (!Object.keys(changes).length) throw validationError(['body: give time_zone and/or state'])
      const companyId = ctx.principal!.companyId
      const row = await withTenantEmitting(ctx.deps, companyId, (tx, emit) => writeCompanySettings(tx, emit, companyId, changes, ctx.deps.clock.now()))
      return respond(row)
    },
    nextSteps: afterCompanySettings,
  }),
]
