import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { REGISTER_OUTCOMES } from '../../providers/registers/provider.js'
import { AuState, closed, DateOnly, Trade } from '../shared-schema.js'

export const SUBCONTRACTOR_STATUSES = ['pending', 'verified', 'active', 'suspended', 'inactive'] as const
export type SubcontractorStatus = (typeof SUBCONTRACTOR_STATUSES)[number]
export const VERIFY_ACTIONS = ['verify', 'activate', 'suspend', 'deactivate'] as const
export type VerifyAction = (typeof VERIFY_ACTIONS)[number]

const text = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, description })

export const RegisterCheckSchema = Type.Object({
  checked: Type.Boolean({ description: 'false: no register was consulted' }),
  source: Type.String(),
  outcome: StringEnum(REGISTER_OUTCOMES),
  detail: Type.String(),
})

export const ExpiryReminder = Type.Object({
  reminder_id: Type.String(),
  document: StringEnum(['licence', 'insurance'] as const),
  expires_on: Type.String({ format: 'date' }),
  due_at: DateTime(),
})

export const SubcontractorSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  trades: Type.Array(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  abn: Nullable(Type.String()),
  licence_number: Nullable(Type.String()),
  licence_class: Nullable(Type.String()),
  licence_state: Nullable(Type.String()),
  licence_expiry: Nullable(Type.String({ format: 'date' })),
  insurer: Nullable(Type.String()),
  policy_number: Nullable(Type.String()),
  insurance_expiry: Nullable(Type.String({ format: 'date' })),
  service_suburbs: Type.Array(Type.String()),
  service_radius_km: Nullable(Type.Integer()),
  available: Type.Boolean(),
  notes: Nullable(Type.String()),
  status: StringEnum(SUBCONTRACTOR_STATUSES),
  register_check: RegisterCheckSchema,
  verified_at: Nullable(DateTime()),
  createdAt: DateTime(),
  updated_at: DateTime(),
})

export const RegisterSubcontractorInput = Type.Object(
  {
    name: text(200, 'Person or business name'),
    trades: Type.Array(Trade(), { minItems: 1, maxItems: 20 }),
    phone: Type.Optional(text(30, 'Australian mobile')),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    abn: Type.Optional(Type.String({ pattern: '^\\d{2} ?\\d{3} ?\\d{3} ?\\d{3}$', description: 'ABN, 11 digits' })),
    licence_number: Type.Optional(text(50, 'Licence number')),
    licence_class: Type.Optional(text(100, 'Licence class')),
    licence_state: Type.Optional(AuState('Issuing state')),
    licence_expiry: Type.Optional(DateOnly('YYYY-MM-DD')),
    insurer: Type.Optional(text(200, 'Public liability insurer')),
    policy_number: Type.Optional(text(100, 'Policy number')),
    insurance_expiry: Type.Optional(DateOnly('YYYY-MM-DD')),
    service_suburbs: Type.Optional(Type.Array(text(100, 'Suburb or postcode'), { maxItems: 100 })),
    service_radius_km: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    available: Type.Optional(Type.Boolean({ default: true })),
    notes: Type.Optional(text(2000, 'Notes')),
  },
  closed,
)

export const VerifySubcontractorInput = Type.Object(
  {
    subcontractor_id: Type.String({ format: 'uuid' }),
    action: Type.Optional(StringEnum(VERIFY_ACTIONS, { default: 'verify', description: 'verify checks licence/ABN' })),
    reason: Type.Optional(text(2000, 'Why (recorded)')),
  },
  closed,
)

export const ListSubcontractorsInput = Type.Object(
  {
    trade: Type.Optional(text(100, 'Trade')),
    status: Type.Optional(StringEnum(SUBCONTRACTOR_STATUSES)),
    available: Type.Optional(Type.Boolean()),
    area: Type.Optional(text(100, 'Service suburb or postcode')),
    ...PagingInput,
  },
  closed,
)

export const SubcontractorListResponse = Type.Object({ subcontractors: Type.Array(SubcontractorSchema), ...PageFields })

export const RegisterSubcontractorResponse = Type.Object({
  subcontractor: SubcontractorSchema,
  expiry_reminders: Type.Array(ExpiryReminder),
})

export const VerifySubcontractorResponse = Type.Object({
  subcontractor: SubcontractorSchema,
  verification: Type.Object({
    action: StringEnum(VERIFY_ACTIONS),
    from_status: StringEnum(SUBCONTRACTOR_STATUSES),
    to_status: StringEnum(SUBCONTRACTOR_STATUSES),
    by_key: Type.String({ description: 'API key id' }),
    reason: Nullable(Type.String()),
    at: DateTime(),
    register_check: Nullable(RegisterCheckSchema),
  }),
  expiry_reminders: Type.Array(ExpiryReminder),
})
