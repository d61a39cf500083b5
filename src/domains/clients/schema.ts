import Type from 'typebox'
import { DateTime, Dollars, Nullable } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'

export const ClientSchema = Type.Object({
  id: Type.String({ description: 'The lead id: a client is a lead with jobs' }),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  address: Nullable(Type.String()),
  createdAt: DateTime(),
  jobCount: Type.Integer(),
  completedJobCount: Type.Integer(),
  quoteCount: Type.Integer(),
  totalRevenue: Dollars('incl', { description: 'Sum of the amounts of Completed jobs' }),
})

export const ListClientsInput = Type.Object(
  {
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Text to find in the name, email, phone or address' })),
    ...PagingInput,
  },
  { additionalProperties: false },
)

export const ClientListResponse = Type.Object({ clients: Type.Array(ClientSchema), ...PageFields })
