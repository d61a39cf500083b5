// Operations registered only in test apps, to exercise each access rule through real HTTP.
// (Domain endpoints for every scope arrive with later issues; the rules are the same code.)
import Type from 'typebox'
import { defineOperation, type AnyOperation } from '../../src/core/operation.js'
import { SCOPES, type Feature } from '../../src/core/access.js'

const Out = Type.Object({ ok: Type.Boolean(), company_id: Type.String() })
const In = Type.Object({})
const base = { domain: 'probe', input: In, output: Out, cost: 'read' as const, mcp: false, annotations: {} }
const run = async (ctx: any) => ({ ok: true, company_id: ctx.principal.companyId })

export const scopeProbes: AnyOperation[] = SCOPES.map((scope) =>
  defineOperation({ ...base, name: `probe.scope_${scope}`, title: scope, description: `needs ${scope}`, access: { scope, permission: 'read' }, rest: { method: 'GET', path: `/probe/scope/${scope}` }, run }),
)

export const permissionProbes: AnyOperation[] = (['write', 'admin'] as const).map((permission) =>
  defineOperation({ ...base, name: `probe.permission_${permission}`, title: permission, description: `needs ${permission}`, access: { scope: 'leads', permission }, rest: { method: 'POST', path: `/probe/permission/${permission}` }, run }),
)

export const featureProbes: AnyOperation[] = (['mcpAccess', 'webhookInbound', 'restWrite'] as Feature[]).map((feature) =>
  defineOperation({ ...base, name: `probe.feature_${feature}`, title: feature, description: `needs ${feature}`, access: { permission: 'read' }, rest: { method: 'POST', path: `/probe/feature/${feature}`, feature }, run }),
)

export const failingProbe = defineOperation({
  ...base, name: 'probe.fails', title: 'fails', description: 'throws a database error', access: 'public', rest: { method: 'GET', path: '/probe/fails' },
  async run(ctx) {
    await ctx.deps.db.app`select * from table_that_does_not_exist where secret_column = 'hunter2'`
    return { ok: false, company_id: '' }
  },
})

export const allProbes = [...scopeProbes, ...permissionProbes, ...featureProbes, failingProbe]
