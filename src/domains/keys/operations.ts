import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { EmptyInput } from '../../core/schema-helpers.js'
import { CreateKeyInput, CreateKeyResponse, KeyIdInput, KeyListResponse, RevokeKeyResponse } from './schema.js'
import { createKey, listKeys, revokeKey } from './service.js'

export const keyOperations = [
  defineOperation({
    name: 'keys.list',
    domain: 'keys',
    title: 'List API keys',
    description: 'List the company\'s API keys (prefix, scopes, permission, last use); never the keys themselves.',
    input: EmptyInput,
    output: KeyListResponse,
    access: { permission: 'admin' },
    cost: 'free',
    beyondSpec: AGENT_PARITY,
    annotations: READ,
    rest: { method: 'GET', path: '/keys' },
    run: (ctx) => listKeys(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'keys.create',
    domain: 'keys',
    title: 'Create an API key',
    description: 'Create a key limited to some scopes and a permission; the key is returned once only.',
    input: CreateKeyInput,
    output: CreateKeyResponse,
    access: { permission: 'admin' },
    cost: 'free',
    beyondSpec: AGENT_PARITY,
    annotations: WRITE,
    rest: { method: 'POST', path: '/keys', status: 201 },
    run: (ctx, input) => createKey(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'keys.revoke',
    domain: 'keys',
    title: 'Revoke an API key',
    description: 'Revoke a key at once; calls with it then get 401. A key cannot revoke itself.',
    input: KeyIdInput,
    output: RevokeKeyResponse,
    access: { permission: 'admin' },
    cost: 'free',
    beyondSpec: AGENT_PARITY,
    annotations: { ...WRITE, idempotentHint: true, destructiveHint: true },
    rest: { method: 'DELETE', path: '/keys/:id' },
    run: (ctx, input) => revokeKey(ctx.deps, ctx.principal!, input.id),
  }),
]
