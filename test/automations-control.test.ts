// workflows.list and workflows.toggle (the company's choice per automation, settings checked
// against the catalogue's schemas), and workflows.team_notify sent at once (no approval), through
// MCP and REST on a real service with its worker.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'
import { connectClient } from '../src/temporal/connection.js'

let app: TestApp
let temporal: Client
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>

const call = async (key: string, name: string, args: Record<string, unknown>) => {
  const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { key })
  const result = res.body.result
  return result.isError ? { error: result.structuredContent } : { ok: result.structuredContent }
}
const byId = (list: any[], id: string) => list.find((w) => w.workflowId === id)

beforeAll(async () => {
  app = await startTestApp()
  temporal = await connectClient(inject('temporalAddress'), 'default')
  a = await onboard(app, { phone: '0412 555 000' })
  b = await onboard(app)
})
afterAll(async () => {
  await temporal?.connection.close()
  await app?.stop()
})

describe('workflows.list and workflows.toggle', () => {
  it('lists every automation with its defaults, approval support and settings schema', async () => {
    const { ok } = await call(a.api_key, 'workflows.list', {})
    const ids = ok.workflows.map((w: any) => w.workflowId)
    for (const id of ['instant_response', 'follow_up_quote', 'chase_payment', 'team_notify']) expect(ids).toContain(id)
    expect(ok.total).toBe(ids.length)
    expect(byId(ok.workflows, 'team_notify')).toMatchObject({
      tool: 'workflows.team_notify', enabled: true, requireApproval: false, supportsApproval: true,
      settings: { approval_expiry_hours: 48 }, lastRuns: [],
    })
    expect(byId(ok.workflows, 'follow_up_quote')).toMatchObject({ supportsApproval: true, settings: { delays_days: [2, 5, 10] } })
    expect(byId(ok.workflows, 'follow_up_quote').settingsSchema.properties.delays_days.maxItems).toBe(3)
  })

  it('toggle round-trips: settings validated and stored, on/off and approval per company', async () => {
    const set = await call(a.api_key, 'workflows.toggle', { workflow_id: 'follow_up_quote', settings: { delays_days: [1, 3] } })
    expect(set.ok.workflow).toMatchObject({ workflowId: 'follow_up_quote', enabled: true, settings: { delays_days: [1, 3] } })
    // By tool name, off; only the settings given change.
    const off = await call(a.api_key, 'workflows.toggle', { workflow_id: 'workflows.follow_up_quote', enabled: false })
    expect(off.ok.workflow).toMatchObject({ enabled: false, settings: { delays_days: [1, 3] } })
    const listed = await call(a.api_key, 'workflows.list', {})
    expect(byId(listed.ok.workflows, 'follow_up_quote')).toMatchObject({ enabled: false, settings: { delays_days: [1, 3] } })
    // The filter.
    const disabled = await call(a.api_key, 'workflows.list', { enabled: false })
    // follow_up_quote, turned off above, plus the automations that are off by default (review_booster, referral_program, daily_summary, ...).
    expect(disabled.ok.workflows.map((w: any) => w.workflowId)).toEqual(expect.arrayContaining(['follow_up_quote', 'review_booster', 'referral_program', 'daily_summary']))
    expect(disabled.ok.workflows.every((w: any) => w.enabled === false)).toBe(true)
    expect(disabled.ok.workflows.map((w: any) => w.workflowId)).not.toContain('team_notify')
    // With nothing else given, toggle flips.
    expect((await call(a.api_key, 'workflows.toggle', { workflow_id: 'follow_up_quote' })).ok.workflow.enabled).toBe(true)
    expect((await call(a.api_key, 'workflows.toggle', { workflow_id: 'follow_up_quote' })).ok.workflow.enabled).toBe(false)
    // Approval on team notices, over REST.
    const rest = await app.call('PATCH', '/api/v1/workflows/team_notify', { key: a.api_key, body: { require_approval: true, settings: { approval_expiry_hours: 4 } } })
    expect(rest.status).toBe(200)
    expect(rest.body.workflow).toMatchObject({ requireApproval: true, enabled: true, settings: { approval_expiry_hours: 4 } })
    const [stored] = await app.owner`select enabled, needs_approval, settings from automation_settings where company_id = ${a.company_id} and automation = 'team_notify'`
    expect(stored).toEqual({ enabled: true, needs_approval: true, settings: { approval_expiry_hours: 4 } })
    // Another company still has the defaults.
    const other = await call(b.api_key, 'workflows.list', {})
    expect(byId(other.ok.workflows, 'follow_up_quote')).toMatchObject({ enabled: true, settings: { delays_days: [2, 5, 10] } })
    expect(byId(other.ok.workflows, 'team_notify')).toMatchObject({ requireApproval: false })
    await call(a.api_key, 'workflows.toggle', { workflow_id: 'team_notify', require_approval: false })
  })

  it('bad settings, an unknown workflow and approval where unsupported are validation_errors naming the field', async () => {
    const tooMany = await call(a.api_key, 'workflows.toggle', { workflow_id: 'follow_up_quote', settings: { delays_days: [1, 2, 3, 4] } })
    expect(tooMany.error.error).toBe('validation_error')
    expect(tooMany.error.messages.join(' ')).toMatch(/^settings\.delays_days: /)
    const zero = await call(a.api_key, 'workflows.toggle', { workflow_id: 'follow_up_quote', settings: { delays_days: [0] } })
    expect(zero.error.messages.join(' ')).toMatch(/settings\.delays_days\.0: /)
    const unknownField = await call(a.api_key, 'workflows.toggle', { workflow_id: 'chase_payment', settings: { cadence: 'weekly' } })
    expect(unknownField.error.messages).toContain('settings.cadence: is not a known field')
    const tone = await call(a.api_key, 'workflows.toggle', { workflow_id: 'chase_payment', settings: { steps: [{ offset_days: 3, tone: 'rude' }] } })
    expect(tone.error.messages.join(' ')).toMatch(/settings\.steps\.0\.tone/)
    const expiry = await call(a.api_key, 'workflows.toggle', { workflow_id: 'team_notify', settings: { approval_expiry_hours: 0 } })
    expect(expiry.error.messages.join(' ')).toMatch(/settings\.approval_expiry_hours/)
    const approval = await call(a.api_key, 'workflows.toggle', { workflow_id: 'instant_response', require_approval: true })
    expect(approval.error).toMatchObject({ error: 'validation_error' })
    expect(approval.error.messages[0]).toMatch(/^require_approval: instant_response does not support approval/)
    const unknown = await call(a.api_key, 'workflows.toggle', { workflow_id: 'make_coffee', enabled: true })
    expect(unknown.error.messages[0]).toMatch(/^workflow_id: 'make_coffee' is not a workflow/)
    // Nothing was stored by the refusals.
    const [row] = await app.owner`select settings from automation_settings where company_id = ${a.company_id} and automation = 'chase_payment'`
    expect(row).toBeUndefined()
  })

  it('toggle needs an admin key; list pages with cursor/nextCursor', async () => {
    const key = await app.call('POST', '/api/v1/keys', { key: a.api_key, body: { name: 'writer', scopes: ['leads'], permission: 'write' } })
    expect((await call(key.body.api_key, 'workflows.toggle', { workflow_id: 'team_notify', enabled: false })).error).toMatchObject({ error: 'forbidden' })
    const all = (await call(a.api_key, 'workflows.list', {})).ok.workflows.map((w: any) => w.workflowId)
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await call(a.api_key, 'workflows.list', { limit: 2, ...(cursor ? { cursor } : {}) })
      seen.push(...page.ok.workflows.map((w: any) => w.workflowId))
      cursor = page.ok.nextCursor ?? undefined
    } while (cursor)
    expect(seen).toEqual(all)
    expect((await call(a.api_key, 'workflows.list', { cursor: 'eyJvIjotMX0' })).error).toMatchObject({ error: 'validation_error' })
  })
})

describe('workflows.team_notify without approval', () => {
  it('sends at once to the whole team (owner mobile and email) and the run shows in workflows.list with its outcome', async () => {
    const res = await call(a.api_key, 'workflows.team_notify', { message: 'Storm warning: secure the ladders', channel: 'both' })
    expect(res.ok).toMatchObject({ status: 'sending', actionId: null, expiresAt: null, started: true, skipped: [] })
    expect(res.ok.messages.map((m: any) => [m.channel, m.to])).toEqual([['sms', '+61412555000'], ['email', a.email]])
    expect(await temporal.workflow.getHandle(res.ok.workflowId).result()).toMatchObject({ status: 'executed', outcome: { failed: [] } })
    const sent = await app.owner`select channel, to_address, message_type, idempotency_key, handed_to_provider_at is not null as handed
      from communications where company_id = ${a.company_id} and message_type = 'team_notice' order by channel`
    expect(sent).toEqual([
      { channel: 'email', to_address: a.email, message_type: 'team_notice', idempotency_key: `${res.ok.workflowId}:email:${a.email}`, handed: true },
      { channel: 'sms', to_address: '+61412555000', message_type: 'team_notice', idempotency_key: `${res.ok.workflowId}:sms:+61412555000`, handed: true },
    ])
    const { ok } = await call(a.api_key, 'workflows.list', {})
    expect(byId(ok.workflows, 'team_notify').lastRuns[0]).toMatchObject({ temporalWorkflowId: res.ok.workflowId, status: 'completed', outcome: '2 sent' })
    // Not another company's runs.
    expect(byId((await call(b.api_key, 'workflows.list', {})).ok.workflows, 'team_notify').lastRuns).toEqual([])
  })

  it('adds the job, refuses recipients it cannot reach, and says not_found for another company\'s job', async () => {
    const lead = await app.call('POST', '/api/v1/leads', { key: a.api_key, body: { name: 'Job Lead' } })
    const [job] = await app.owner`insert into jobs (company_id, lead_id, title, status, address) values (${a.company_id}, ${lead.body.lead.id}, 'Switchboard upgrade', 'Scheduled', '1 George St, Sydney') returning id::text`
    const res = await call(a.api_key, 'workflows.team_notify', { message: 'Bring the tester', job_id: job!.id, recipients: ['0412 555 001'] })
    expect(res.ok.messages).toEqual([{ channel: 'sms', to: '+61412555001', name: null, subject: null, text: 'Bring the tester\nJob: Switchboard upgrade, 1 George St, Sydney' }])
    const landline = await call(a.api_key, 'workflows.team_notify', { message: 'x', recipients: ['02 9876 5432'] })
    expect(landline.error.messages).toEqual(["recipients.0: '02 9876 5432' is not an Australian mobile number, so no SMS can reach it"])
    const nobody = await call(a.api_key, 'workflows.team_notify', { message: 'x', recipients: ['Nobody Here'] })
    expect(nobody.error.messages[0]).toMatch(/^recipients\.0: 'Nobody Here' is not an Australian mobile/)
    const emailOnly = await call(a.api_key, 'workflows.team_notify', { message: 'x', recipients: ['tech@example.com.au'], channel: 'sms' })
    expect(emailOnly.error.messages[0]).toMatch(/^recipients: nobody can be reached by sms/)
    expect((await call(b.api_key, 'workflows.team_notify', { message: 'x', job_id: job!.id })).error).toMatchObject({ error: 'not_found' })
  })
})
