import Type from 'typebox'
import { DateTime, Nullable, StringEnum, UPDATE_OPTIONS } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { DryRun, SentMessage } from '../shared-schema.js'

export const LEAD_STATUSES = ['New', 'Contacted', 'Qualified', 'Quoted', 'Won', 'Lost'] as const
export const LEAD_PRIORITIES = ['Low', 'Normal', 'High', 'Urgent'] as const
export type LeadStatus = (typeof LEAD_STATUSES)[number]
export type LeadPriority = (typeof LEAD_PRIORITIES)[number]

export const LeadSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  phone: Nullable(Type.String({ description: 'E.164, e.g. +61412345678' })),
  email: Nullable(Type.String()),
  serviceType: Nullable(Type.String()),
  status: StringEnum(LEAD_STATUSES),
  priority: StringEnum(LEAD_PRIORITIES),
  message: Nullable(Type.String()),
  address: Nullable(Type.String()),
  suburb: Nullable(Type.String()),
  source: Nullable(Type.String()),
  createdAt: DateTime(),
  updated_at: DateTime(),
})

const text = (max: number, description: string) => Type.String({ maxLength: max, description })

const contactFields = {
  phone: Type.Optional(text(30, 'Australian phone number; stored as E.164. A mobile gets the instant SMS reply.')),
  email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  serviceType: Type.Optional(text(100, 'What the job is, e.g. "Blocked drain"')),
  message: Type.Optional(text(5000, "The customer's own words")),
  address: Type.Optional(text(300, 'Street address')),
  suburb: Type.Optional(text(100, 'Suburb, e.g. Parramatta')),
  source: Type.Optional(text(100, "Where the lead came from (website, phone, google_ads, ...); referral:<CODE> with a client's referral code (workflows.referral_program) records the referral")),
  priority: Type.Optional(StringEnum(LEAD_PRIORITIES, { description: 'Default Normal' })),
}

export const CreateLeadInput = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, description: "Customer's name" }), ...contactFields, dry_run: DryRun },
  { additionalProperties: false },
)

const clearable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Optional(Nullable(s))

export const UpdateLeadInput = Type.Object(
  {
    lead_id: Type.String({ format: 'uuid', description: 'The lead to change' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    phone: clearable(text(30, 'Australian phone number; null clears it')),
    email: clearable(Type.String({ format: 'email', maxLength: 254 })),
    serviceType: clearable(text(100, 'null clears it')),
    message: clearable(text(5000, 'null clears it')),
    address: clearable(text(300, 'null clears it')),
    suburb: clearable(text(100, 'null clears it')),
    source: clearable(text(100, 'null clears it')),
    priority: Type.Optional(StringEnum(LEAD_PRIORITIES)),
    status: Type.Optional(StringEnum(LEAD_STATUSES, { description: 'Any status may be set' })),
  },
  UPDATE_OPTIONS,
)

export const ListLeadsInput = Type.Object(
  {
    status: Type.Optional(StringEnum(LEAD_STATUSES, { description: 'Only leads in this status' })),
    priority: Type.Optional(StringEnum(LEAD_PRIORITIES, { description: 'Only leads of this priority' })),
    ...PagingInput,
  },
  { additionalProperties: false },
)

export const LeadListResponse = Type.Object({ leads: Type.Array(LeadSchema), ...PageFields })

export const LeadResponse = Type.Object({ lead: LeadSchema })

/**
 * leads.create: the lead, as it has always been; a dry run answers with no lead and the instant
 * reply the lead would get (its two fields are there only then, so a real call's answer is unchanged).
 */
export const CreateLeadResponse = Type.Object({
  lead: Type.Union([LeadSchema, Type.Null()], { description: 'The new lead; null on a dry run (nothing was created)' }),
  dry_run: Type.Optional(Type.Boolean({ description: 'Only on a dry run (true): nothing was created, sent or started' })),
  messages: Type.Optional(Type.Array(SentMessage, { description: 'Only on a dry run: the instant reply the lead would get now, exactly' })),
})
