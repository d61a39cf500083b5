import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { PERMISSIONS, SCOPES } from '../../core/access.js'

export const ApiKeySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'First characters of the key, for recognising it' }),
  scopes: Type.Array(StringEnum(SCOPES)),
  permission: StringEnum(PERMISSIONS),
  created_at: DateTime(),
  last_used_at: Nullable(DateTime()),
  revoked_at: Nullable(DateTime()),
})

export const CreateKeyInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Label, e.g. "Quoting agent"' }),
    scopes: Type.Array(StringEnum(SCOPES), { minItems: 1, uniqueItems: true, description: 'Resource scopes the key may reach' }),
    permission: StringEnum(PERMISSIONS, { description: 'read < write < admin' }),
  },
  { additionalProperties: false },
)

export const CreateKeyResponse = Type.Object({
  key: ApiKeySchema,
  api_key: Type.String({ description: 'Shown once only.' }),
})

export const KeyListResponse = Type.Object({ keys: Type.Array(ApiKeySchema) })
export const KeyIdInput = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false })
export const RevokeKeyResponse = Type.Object({ key: ApiKeySchema })
