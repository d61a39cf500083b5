// Reading and changing the company's profile. The time zone and state change the way
// onboarding.update_company_settings changes them (writeCompanySettings: the event that moves the
// daily summary's schedule), in the same transaction as the rest of the profile.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { validationError } from '../../core/errors.js'
import { readOptionalAuPhone } from '../../core/phone.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { AUSTRALIAN_TIME_ZONES } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { formatAbn, isValidAbn, normaliseAbn } from '../onboarding/abn.js'
import { writeCompanySettings, type CompanySettingsChanges } from '../onboarding/company-settings.js'
import { AU_STATES } from '../shared-schema.js'
import { findCompanyProfile, updateCompanyProfileRow, type CompanyProfileRow, type ProfileChanges } from './queries.js'
import type { UpdateCompanyProfileInput } from './schema.js'

function present(row: CompanyProfileRow) {
  return {
    company: {
      id: row.id, business_name: row.business_name, contact_name: row.contact_name, contact_email: row.contact_email, phone: row.phone,
      abn: row.abn, abn_display: row.abn ? formatAbn(row.abn) : null, trade_type: row.trade_type, state: row.state, time_zone: row.time_zone, create_job_on_acceptance: row.create_job_on_acceptance,
      dispatch_requires_approval: row.dispatch_requires_approval,
      created_at: row.created_at.toISOString(),
    },
    available_states: [...AU_STATES],
    available_time_zones: [...AUSTRALIAN_TIME_ZONES],
  }
}

export async function getCompanyProfile(deps: Deps, principal: Principal) {
  return present(await withTenant(deps.db, principal.companyId, findCompanyProfile))
}

export async function updateCompanyProfile(deps: Deps, principal: Principal, input: Static<typeof UpdateCompanyProfileInput>) {
  // Every problem at once, before anything changes.
  const problems: string[] = []
  const profile: ProfileChanges = {}
  if (input.business_name !== undefined) {
    if (input.business_name.trim().length < 2) problems.push('business_name: give the trading name (at least 2 characters besides spaces)')
    else profile.business_name = input.business_name.trim()
  }
  if (input.contact_name !== undefined) profile.contact_name = input.contact_name?.trim() || null
  if (input.contact_email !== undefined) profile.contact_email = input.contact_email
  if (input.trade_type !== undefined) profile.trade_type = input.trade_type?.trim() || null
  if (input.create_job_on_acceptance !== undefined) profile.create_job_on_acceptance = input.create_job_on_acceptance
  if (input.dispatch_requires_approval !== undefined) profile.dispatch_requires_approval = input.dispatch_requires_approval
  if (input.phone !== undefined) {
    const phone = readOptionalAuPhone(input.phone)
    if ('problem' in phone) problems.push(phone.problem)
    else profile.phone = phone.e164
  }
  if (input.abn !== undefined) {
    if (input.abn === null || !input.abn.trim()) profile.abn = null
    else if (!isValidAbn(input.abn)) problems.push(`abn: '${input.abn}' is not a valid Australian Business Number (11 digits with a valid checksum); check it at abr.business.gov.au`)
    else profile.abn = normaliseAbn(input.abn)
  }
  if (problems.length) throw validationError(problems)

  const settings: CompanySettingsChanges = {}
  if (input.time_zone !== undefined) settings.time_zone = input.time_zone
  if (input.state !== undefined) settings.state = input.state

  const companyId = principal.companyId
  const row = await withTenantEmitting(deps, companyId, async (tx, emit) => {
    if (Object.keys(profile).length) await updateCompanyProfileRow(tx, companyId, profile)
    if (Object.keys(settings).length) await writeCompanySettings(tx, emit, companyId, settings, deps.clock.now())
    return findCompanyProfile(tx)
  })
  return present(row)
}
