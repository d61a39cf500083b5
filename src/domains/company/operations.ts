import { defineOperation } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { EmptyInput } from '../../core/schema-helpers.js'
import { afterProfileChange } from './next-steps.js'
import { CompanyProfileResponse, UpdateCompanyProfileInput } from './schema.js'
import { getCompanyProfile, updateCompanyProfile } from './service.js'

// The spec gives an agent no tool to read or correct the company it runs (its ABN was readable only
// on quote and invoice pages, its state settable only over REST); an agent with only an MCP client
// needs both.
const BEYOND_SPEC = 'An agent with only an MCP client must be able to read and correct the company it runs (name, ABN, contact, state, time zone); the spec lists no tool for it.'

export const companyOperations = [
  defineOperation({
    name: 'company.profile', domain: 'company', title: 'Company profile',
    description: "The company's profile: business name, ABN, contact name, email and phone, trade, state or territory (null until set; scheduling by business day needs it) and time zone, with the states and time zones it may be set to.",
    input: EmptyInput, output: CompanyProfileResponse, access: { permission: 'read' }, cost: 'read', annotations: READ,
    beyondSpec: BEYOND_SPEC,
    rest: { method: 'GET', path: '/company' },
    run: (ctx) => getCompanyProfile(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'company.update_profile', domain: 'company', title: 'Change company profile',
    description: "Change the company's profile: business name, contact name, email and phone, ABN (checksum verified), trade, state or territory, time zone. Only what you give changes; null clears an optional field. The state is the one invoicing settings show; a time zone change moves reminders' local times and schedules as onboarding.update_company_settings does.",
    input: UpdateCompanyProfileInput, output: CompanyProfileResponse, access: { permission: 'admin' }, cost: 'write', annotations: { ...WRITE, idempotentHint: true },
    beyondSpec: BEYOND_SPEC,
    rest: { method: 'PATCH', path: '/company', status: 200, feature: 'restWrite' },
    run: (ctx, input) => updateCompanyProfile(ctx.deps, ctx.principal!, input),
    nextSteps: afterProfileChange,
  }),
]
