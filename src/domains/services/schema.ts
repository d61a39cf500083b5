import Type from 'typebox'
import { DateTime, Dollars, Nullable, StringEnum, UPDATE_OPTIONS } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'

export const SERVICE_UNITS = ['each', 'hour', 'metre', 'square_metre', 'fixed'] as const
const Unit = StringEnum(SERVICE_UNITS, { description: 'What the price is per (default each)' })

export const ServiceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  category: Nullable(Type.String()),
  unit: Unit,
  price: Dollars('ex', { description: 'Price per unit' }),
  active: Type.Boolean(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
})

const closed = { additionalProperties: false } as const

export const ListServicesInput = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ description: 'true for active services only, false for inactive only; omit for all' })),
    category: Type.Optional(Type.String({ description: 'Only services in this category' })),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the name or description' })),
    ...PagingInput,
  },
  closed,
)

export const CreateServiceInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Service name, e.g. "Blocked drain clearing"' }),
    price: Dollars('ex', { minimum: 0, maximum: 1_000_000, description: 'Price per unit' }),
    description: Type.Optional(Type.String({ maxLength: 2000, description: 'Description shown on quotes' })),
    unit: Type.Optional(Unit),
    category: Type.Optional(Type.String({ maxLength: 100, description: 'Category, e.g. drainage, hot water, switchboards' })),
    active: Type.Optional(Type.Boolean({ default: true, description: 'Whether the service is offered' })),
  },
  closed,
)

export const UpdateServiceInput = Type.Object(
  {
    service_id: Type.String({ format: 'uuid', description: 'Service to update' }),
    price: Type.Optional(Dollars('ex', { minimum: 0, maximum: 1_000_000, description: 'New price per unit' })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: 'New description; null clears it' }))),
    active: Type.Optional(Type.Boolean({ description: 'true to offer the service, false to make it inactive' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'New name' })),
    unit: Type.Optional(Unit),
    category: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'New category; null clears it' }))),
  },
  UPDATE_OPTIONS,
)

export const ServiceResponse = Type.Object({ service: ServiceSchema })
export const ServiceListResponse = Type.Object({ services: Type.Array(ServiceSchema), ...PageFields })
