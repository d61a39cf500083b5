// The company profile: what the companies row holds that an owner edits (not plan, billing or the
// referral it signed up with).
import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { AUSTRALIAN_TIME_ZONES } from '../../core/zoned-time.js'
import { AU_STATES } from '../shared-schema.js'

const TimeZone = (description: string) => StringEnum(AUSTRALIAN_TIME_ZONES, { description })
const State = (description: string) => StringEnum(AU_STATES, { description })

export const CompanyProfileSchema = Type.Object({
  id: Type.String(),
  business_name: Type.String({ description: 'Trading name, shown on quotes, invoices and messages' }),
  contact_name: Nullable(Type.String()),
  contact_email: Type.String({ description: 'Contact address on quotes, invoices and emails' }),
  phone: Nullable(Type.String({ description: 'E.164, e.g. +61412345678' })),
  abn: Nullable(Type.String({ description: 'Australian Business Number, 11 digits' })),
  abn_display: Nullable(Type.String({ description: 'The ABN as the ABR prints it, e.g. 51 824 753 556' })),
  trade_type: Nullable(Type.String()),
  state: Nullable(State('State or territory the business works in (null until set): its public holidays are skipped when scheduling by business day; it picks the small-claims forum')),
  time_zone: TimeZone('Time zone (IANA) every local date, reminder and schedule is read in'),
  create_job_on_acceptance: Type.Boolean({ description: 'An accepted quote opens its job at once (status Quoted, to schedule); on by default' }),
  dispatch_requires_approval: Type.Boolean({ description: "subcontractors.dispatch waits for the owner's approval (workflows.pending_actions) before the first offer; off by default" }),
  created_at: DateTime(),
})

export const CompanyProfileResponse = Type.Object({
  company: CompanyProfileSchema,
  available_states: Type.Array(Type.String()),
  available_time_zones: Type.Array(Type.String()),
})

export const UpdateCompanyProfileInput = Type.Object(
  {
    business_name: Type.Optional(Type.String({ minLength: 2, maxLength: 200, description: 'Trading name (at least 2 characters)' })),
    contact_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    contact_email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: "Contact address on quotes, invoices and emails; the owner's login stays as it is" })),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 30, description: 'Australian phone number, e.g. 0412 345 678; stored as E.164. null or blank removes it' }))),
    abn: Type.Optional(Nullable(Type.String({ maxLength: 20, description: 'Australian Business Number: 11 digits (spaces allowed) with a valid checksum; null removes it' }))),
    trade_type: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'Free text, e.g. plumber, electrician' }))),
    state: Type.Optional(Nullable(State('State or territory; the same state invoicing settings show'))),
    time_zone: Type.Optional(TimeZone("One of Australia's IANA zones, e.g. Australia/Perth; reminders keep their instant, schedules move to the new local time")),
    create_job_on_acceptance: Type.Optional(Type.Boolean({ description: 'false: an accepted quote waits for jobs.create or workflows.quote_to_invoice to get its job' })),
    dispatch_requires_approval: Type.Optional(Type.Boolean({ description: 'true: each subcontractors.dispatch waits in workflows.pending_actions until approved (workflows.approve_action) before its first offer' })),
  },
  { additionalProperties: false, minProperties: 1 },
)
