// Approval-gated team notices on the real Temporal dev server. The oracle for "sent" is a local
// Twilio (test/helpers/twilio-server.ts) behind a proxy that holds each request a little, so an
// approval is still executing when a second decision arrives: what reached the gateway is what
// was sent, whatever our tables say.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client } from '@temporalio/client'
import { WorkflowUpdateFailedError } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'
import { startLocalTwilio, type LocalTwilio } from './helpers/twilio-server.js'
import { connectClient } from '../src/temporal/connection.js'
import { workflowStart } from '../src/temporal/contract.js'
import { teamNotifyDefinition, type TeamNotifyInput } from '../src/domains/automations/team-notify/team-notify.js'
import { decideUpdate } from '../workflows/approval.js'

const GATEWAY_DELAY_MS = 700
let app: TestApp
let gateway: LocalTwilio
let proxy: http.Server
let temporal: Client
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>

/** Forwards to the local Twilio after GATEWAY_DELAY_MS. */
async function startSlowProxy(target: string): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(async (req, res) => {
    let body = ''
    for await (const c of req) body += c
    await new Promise((r) => setTimeout(r, GATEWAY_DELAY_MS))
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>
    const answer = await fetch(target + req.url, { method: req.method, headers, body })
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(await answer.text())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

const call = async (key: string, name: string, args: Record<string, unknown>) => {
  const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { key })
  const result = res.body.result
  return result.isError ? { error: result.structuredContent ?? JSON.parse(result.content[0].text) } : { ok: result.structuredContent }
}
const smsTo = (number: string) => gateway.messages.filter((m) => m.form.To === number)

beforeAll(async () => {
  gateway = await startLocalTwilio()
  const slow = await startSlowProxy(gateway.url)
  proxy = slow.server
  app = await startTestApp({
    config: { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: gateway.accountSid, TWILIO_AUTH_TOKEN: gateway.authToken, TWILIO_FROM: gateway.from, TWILIO_BASE_URL: slow.url },
  })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  a = await onboard(app, { phone: '0412 000 111' })
  b = await onboard(app)
  const toggled = await call(a.api_key, 'workflows.toggle', { workflow_id: 'team_notify', require_approval: true })
  expect(toggled.ok.workflow).toMatchObject({ workflowId: 'team_notify', enabled: true, requireApproval: true, supportsApproval: true })
})
afterAll(async () => {
  await temporal?.connection.close()
  await app?.stop()
  proxy?.closeAllConnections()
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
  await gateway?.close()
})

describe('approval-gated team notices', () => {
  it('a held notice sends nothing, and pending_actions shows what would go to whom', async () => {
    const res = await call(a.api_key, 'workflows.team_notify', { message: 'Van 2 is in for service Friday', recipients: ['0412 345 601'] })
    expect(res.ok).toMatchObject({ status: 'pending_approval', started: true, skipped: [] })
    expect(res.ok.workflowId).toMatch(new RegExp(`^team-notify:${a.company_id}:`))
    const list = await call(a.api_key, 'workflows.pending_actions', {})
    const action = list.ok.actions.find((x: any) => x.id === res.ok.actionId)
    expect(action).toMatchObject({
      workflow: 'team_notify', temporalWorkflowId: res.ok.workflowId, status: 'pending',
      messages: [{ channel: 'sms', to: '+61412345601', name: null, subject: null, text: 'Van 2 is in for service Friday' }],
    })
    // The default window: 48 hours from now.
    expect(Date.parse(action.expiresAt) - Date.now()).toBeGreaterThan(47.9 * 3600_000)
    await new Promise((r) => setTimeout(r, GATEWAY_DELAY_MS + 500))
    expect(smsTo('+61412345601')).toHaveLength(0)
    // Also over REST.
    const rest = await app.call('GET', '/api/v1/workflows/pending-actions', { key: a.api_key })
    expect(rest.status).toBe(200)
    expect(rest.body.actions.map((x: any) => x.id)).toContain(res.ok.actionId)
  })

  it('approve executes once: two concurrent approvals and a third afterwards send exactly one SMS, all answering the same outcome', async () => {
    const res = await call(a.api_key, 'workflows.team_notify', { message: 'Toolbox talk 7am', recipients: ['0412 345 602'] })
    const id = res.ok.actionId
    const [first, second] = await Promise.all([
      call(a.api_key, 'workflows.approve_action', { action_id: id, note: 'ok' }),
      call(a.api_key, 'workflows.approve_action', { action_id: id }),
    ])
    const answers = [first.ok, second.ok]
    expect(first.error ?? second.error).toBeUndefined()
    expect(answers.map((x) => x.alreadyDecided).sort()).toEqual([false, true])
    for (const answer of answers) {
      expect(answer.action).toMatchObject({ id, status: 'executed', decidedBy: expect.any(String) })
      expect(answer.action.outcome).toEqual({ sent: [{ channel: 'sms', to: '+61412345602', status: 'queued' }], failed: [] })
    }
    // Both answers describe the one execution, whichever call won (its note is kept).
    expect(first.ok.action).toEqual(second.ok.action)
    expect([null, 'ok']).toContain(first.ok.action.note)
    const third = await call(a.api_key, 'workflows.approve_action', { action_id: id })
    expect(third.ok).toMatchObject({ alreadyDecided: true, action: { status: 'executed' } })
    expect(smsTo('+61412345602')).toHaveLength(1)
    expect(smsTo('+61412345602')[0]!.form.Body).toBe('Toolbox talk 7am')
    // Rejecting an executed action is a conflict; nothing changes.
    const late = await call(a.api_key, 'workflows.reject_action', { action_id: id, reason: 'too late' })
    expect(late.error).toMatchObject({ error: 'conflict' })
    expect(late.error.message).toMatch(/already approved/)
    // It left the pending list, and the run is recorded with its outcome.
    const list = await call(a.api_key, 'workflows.pending_actions', { workflow_id: 'team_notify' })
    expect(list.ok.actions.map((x: any) => x.id)).not.toContain(id)
    const [run] = await app.owner`select status, outcome from automation_runs where workflow_id = ${res.ok.workflowId}`
    expect(run).toEqual({ status: 'completed', outcome: 'approved: 1 sent' })
    expect(smsTo('+61412345602')).toHaveLength(1)
  })

  it('the validator refuses a decision on a decided action at once, while the approved one is still executing', async () => {
    const res = await call(a.api_key, 'workflows.team_notify', { message: 'Gate code changed', recipients: ['0412 345 603'] })
    const handle = temporal.workflow.getHandle(res.ok.workflowId)
    const approveCall = call(a.api_key, 'workflows.approve_action', { action_id: res.ok.actionId })
    // Wait until the approval is accepted (its pending_actions row says approved while it executes).
    for (let i = 0; i < 100; i++) {
      const [row] = await app.owner`select status from pending_actions where id = ${res.ok.actionId}`
      if (row!.status !== 'pending') break
      await new Promise((r) => setTimeout(r, 20))
    }
    const startedAt = Date.now()
    const refusal: any = await handle.executeUpdate(decideUpdate, { args: [{ actionId: res.ok.actionId, decision: 'reject', keyId: a.api_key }] }).catch((e: any) => e)
    expect(refusal).toBeInstanceOf(WorkflowUpdateFailedError)
    expect(refusal.cause.message).toMatch(/^already approved at /)
    // Refused at once: well before the slow gateway let the approved SMS through.
    expect(Date.now() - startedAt).toBeLessThan(GATEWAY_DELAY_MS)
    // An unknown action is refused as well.
    const unknown: any = await handle.executeUpdate(decideUpdate, { args: [{ actionId: '00000000-0000-4000-8000-000000000000', decision: 'approve', keyId: 'k' }] }).catch((e: any) => e)
    expect(unknown.cause.message).toMatch(/is not waiting in this workflow/)
    expect((await approveCall).ok).toMatchObject({ alreadyDecided: false, action: { status: 'executed' } })
    expect(await handle.result()).toMatchObject({ status: 'executed' })
    expect(smsTo('+61412345603')).toHaveLength(1)
    // Refused updates leave no trace in the history: one accepted update only.
    const history = await handle.fetchHistory()
    const accepted = history.events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)
    expect(accepted).toHaveLength(1)
  })

  it('reject records it and never executes; approving afterwards is a conflict', async () => {
    const res = await call(a.api_key, 'workflows.team_notify', { message: 'Do not send me', recipients: ['0412 345 604'] })
    const rejected = await call(a.api_key, 'workflows.reject_action', { action_id: res.ok.actionId, reason: 'wrong crew' })
    expect(rejected.error).toBeUndefined()
    expect(rejected.ok).toMatchObject({ alreadyDecided: false, action: { status: 'rejected', note: 'wrong crew', outcome: null } })
    expect(await temporal.workflow.getHandle(res.ok.workflowId).result()).toEqual({ status: 'rejected', outcome: null })
    const again = await call(a.api_key, 'workflows.reject_action', { action_id: res.ok.actionId })
    expect(again.ok).toMatchObject({ alreadyDecided: true, action: { status: 'rejected' } })
    const approve = await call(a.api_key, 'workflows.approve_action', { action_id: res.ok.actionId })
    expect(approve.error).toMatchObject({ error: 'conflict' })
    expect(approve.error.message).toMatch(/already rejected/)
    await new Promise((r) => setTimeout(r, GATEWAY_DELAY_MS + 300))
    expect(smsTo('+61412345604')).toHaveLength(0)
    const [run] = await app.owner`select status, outcome from automation_runs where workflow_id = ${res.ok.workflowId}`
    expect(run).toEqual({ status: 'stopped', outcome: 'rejected: nothing sent' })
  })

  it('an unanswered action expires and executes nothing; a decision afterwards is a conflict saying so', async () => {
    // The expiry is policy in the workflow's input: 2 seconds here (48 hours by default).
    const input: TeamNotifyInput = {
      companyId: a.company_id, noticeId: crypto.randomUUID(), jobId: null, summary: 'Message to the team: "expire me"',
      messages: [{ channel: 'sms', to: '+61412345605', name: null, body: 'expire me' }],
      approval: { actionId: crypto.randomUUID(), expiresInMs: 2_000 },
    }
    const spec = workflowStart(teamNotifyDefinition, input)
    expect(await app.runtime.deps.workflows.start(spec)).toEqual({ started: true })
    const handle = temporal.workflow.getHandle(spec.workflowId)
    // Waiting: listed with what it would send.
    let listed: any
    for (let i = 0; i < 50 && !listed; i++) {
      listed = (await call(a.api_key, 'workflows.pending_actions', { workflow_id: spec.workflowId })).ok.actions[0]
      if (!listed) await new Promise((r) => setTimeout(r, 50))
    }
    expect(listed).toMatchObject({ id: input.approval!.actionId, status: 'pending', messages: [{ to: '+61412345605', text: 'expire me' }] })
    expect(await handle.result()).toEqual({ status: 'expired', outcome: null })
    const [row] = await app.owner`select status, decided_at, outcome from pending_actions where id = ${input.approval!.actionId}`
    expect(row).toEqual({ status: 'expired', decided_at: null, outcome: null })
    const late = await call(a.api_key, 'workflows.approve_action', { action_id: input.approval!.actionId })
    expect(late.error).toMatchObject({ error: 'conflict' })
    expect(late.error.message).toMatch(/expired at .* nothing was executed/)
    await new Promise((r) => setTimeout(r, GATEWAY_DELAY_MS + 300))
    expect(smsTo('+61412345605')).toHaveLength(0)
  })

  it("another company's action id is not_found for approve, reject and the list; so is an id that is not one", async () => {
    const res = await call(a.api_key, 'workflows.team_notify', { message: 'Private to A', recipients: ['0412 345 606'] })
    for (const name of ['workflows.approve_action', 'workflows.reject_action']) {
      expect((await call(b.api_key, name, { action_id: res.ok.actionId })).error).toMatchObject({ error: 'not_found' })
      expect((await call(b.api_key, name, { action_id: 'not-an-id' })).error).toMatchObject({ error: 'not_found' })
    }
    const bList = await call(b.api_key, 'workflows.pending_actions', {})
    expect(bList.ok).toMatchObject({ actions: [], total: 0, nextCursor: null })
    const rest = await app.call('POST', `/api/v1/workflows/pending-actions/${res.ok.actionId}/approve`, { key: b.api_key, body: {} })
    expect(rest.status).toBe(404)
    // A's action is untouched and still waiting.
    const [row] = await app.owner`select status from pending_actions where id = ${res.ok.actionId}`
    expect(row!.status).toBe('pending')
    await call(a.api_key, 'workflows.reject_action', { action_id: res.ok.actionId })
  })

  it('approve and reject need an admin key', async () => {
    const key = await app.call('POST', '/api/v1/keys', { key: a.api_key, body: { name: 'writer', scopes: ['leads'], permission: 'write' } })
    expect(key.status).toBe(201)
    const res = await call(a.api_key, 'workflows.team_notify', { message: 'Needs an admin', recipients: ['0412 345 607'] })
    const refused = await call(key.body.api_key, 'workflows.approve_action', { action_id: res.ok.actionId })
    expect(refused.error).toMatchObject({ error: 'forbidden' })
    await call(a.api_key, 'workflows.reject_action', { action_id: res.ok.actionId })
  })

  it('pending_actions lists oldest first and pages with cursor/nextCursor', async () => {
    const c = await onboard(app)
    await call(c.api_key, 'workflows.toggle', { workflow_id: 'workflows.team_notify', require_approval: true })
    const ids: string[] = []
    for (const n of [1, 2, 3]) ids.push((await call(c.api_key, 'workflows.team_notify', { message: `Notice ${n}`, recipients: [`04123456${10 + n}`] })).ok.actionId)
    const page1 = await call(c.api_key, 'workflows.pending_actions', { limit: 2 })
    expect(page1.ok.actions.map((x: any) => x.id)).toEqual(ids.slice(0, 2))
    expect(page1.ok.total).toBe(3)
    const page2 = await call(c.api_key, 'workflows.pending_actions', { limit: 2, cursor: page1.ok.nextCursor })
    expect(page2.ok.actions.map((x: any) => x.id)).toEqual(ids.slice(2))
    expect(page2.ok.nextCursor).toBeNull()
    expect((await call(c.api_key, 'workflows.pending_actions', { cursor: 'bogus!' })).error).toMatchObject({ error: 'validation_error' })
    for (const id of ids) await call(c.api_key, 'workflows.reject_action', { action_id: id })
  })
})
