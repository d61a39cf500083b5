// Instant lead response: a real workflow on the real Temporal dev server, through the outbox.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { killApiProcess, startApiProcess, type ApiProcess } from './helpers/api-process.js'
import { rpc } from './helpers/mcp.js'
import { connectClient } from '../src/temporal/connection.js'
import type { Client } from '@temporalio/client'
import { instantResponseWorkflowId } from '../src/domains/automations/instant-response/workflows/instant-response.js'

let app: TestApp
let temporal: Client
let company: Awaited<ReturnType<typeof onboard>>
beforeAll(async () => {
  app = await startTestApp({ relay: false })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
})
afterAll(async () => {
  await temporal?.connection.close()
  await app?.stop()
})

const createViaMcp = async (args: Record<string, unknown>) => {
  const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.create', arguments: args } }, { key: company.api_key })
  return res.body.result.structuredContent.lead as { id: string; status: string; createdAt: string }
}


const messagesFor = (leadId: string) =>
  app.owner`select channel, to_address, provider, status, body, subject, handed_to_provider_at from communications where lead_id = ${leadId} order by channel`
const leadStatus = async (leadId: string) => (await app.owner`select status from leads where id = ${leadId}`)[0]!.status as string
const runsOf = async (workflowId: string) => {
  const runs: string[] = []
  for await (const wf of temporal.workflow.list({ query: `WorkflowId = "${workflowId}"` })) runs.push(wf.runId)
  return runs
}

describe('instant lead response', () => {
  it('a lead created through MCP gets its SMS (and email) recorded within 30 seconds and becomes Contacted', async () => {
    const lead = await createViaMcp({ name: 'Jordan Lee', phone: '0412 345 678', email: 'jordan@example.com.au', serviceType: 'leaking tap' })
    expect(lead.status).toBe('New')
    const workflowId = instantResponseWorkflowId({ companyId: company.company_id, leadId: lead.id })
    const result = await temporal.workflow.getHandle(workflowId).result()
    expect(result).toMatchObject({ skipped: null, contacted: true, failed: [], deadline: { met: true } })
    // The promise runs from the lead's arrival: 30 seconds after createdAt.
    expect(Date.parse(result.deadline.promised_by) - Date.parse(lead.createdAt)).toBe(30_000)
    const messages = await messagesFor(lead.id)
    expect(messages.map((m) => [m.channel, m.to_address, m.provider, m.status])).toEqual([
      ['email', 'jordan@example.com.au', 'local-outbox', 'recorded'],
      ['sms', '+61412345678', 'local-outbox', 'recorded'],
    ])
    const sms = messages.find((m) => m.channel === 'sms')!
    expect(sms.body).toBe('Hi Jordan, thanks for contacting Sparky Bros Electrical about leaking tap. We have your enquiry and will be in touch shortly.')
    expect(sms.handed_to_provider_at.getTime() - Date.parse(lead.createdAt)).toBeLessThan(30_000)
    expect(await leadStatus(lead.id)).toBe('Contacted')
    // Visible per company in the Temporal UI.
    const byCompany: string[] = []
    for await (const wf of temporal.workflow.list({ query: `CompanyId = "${company.company_id}" AND WorkflowType = "instantResponse"` })) byCompany.push(wf.workflowId)
    expect(byCompany).toContain(workflowId)
    // Usage counts the messages.
    const usage = await app.call('GET', '/api/v1/usage', { key: company.api_key })
    expect(usage.body.usage.sms.used).toBeGreaterThanOrEqual(1)
    expect(usage.body.usage.emails.used).toBeGreaterThanOrEqual(1)
  })

  it('uses the company\'s own template when it has one', async () => {
    await app.owner`insert into message_templates (company_id, key, body) values (${company.company_id}, 'instant_response.sms', 'G''day {first_name}! {business_name} here, we will ring you about your {service} in {suburb}.')`
    const lead = await createViaMcp({ name: 'Casey Smith', phone: '+61 400 111 222', serviceType: 'switchboard', suburb: 'Penrith' })
    await temporal.workflow.getHandle(instantResponseWorkflowId({ companyId: company.company_id, leadId: lead.id })).result()
    const [sms] = await messagesFor(lead.id)
    expect(sms!.body).toBe("G'day Casey! Sparky Bros Electrical here, we will ring you about your switchboard in Penrith.")
    await app.owner`delete from message_templates where company_id = ${company.company_id}`
  })

  it('a second start for the same lead is harmless: no second run, no second message', async () => {
    const lead = await createViaMcp({ name: 'Robin Park', phone: '0400 222 333' })
    const workflowId = instantResponseWorkflowId({ companyId: company.company_id, leadId: lead.id })
    await temporal.workflow.getHandle(workflowId).result()
    const again = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'workflows.instant_response', arguments: { lead_id: lead.id } } }, { key: company.api_key })
    expect(again.body.result.structuredContent).toEqual({
      workflow_id: workflowId, started: true, skipped: null, dry_run: false, messages: [],
      next_steps: [{ tool: 'quotes.create', why: expect.stringContaining(lead.id) }],
    })
    expect(await runsOf(workflowId)).toHaveLength(1)
    expect(await messagesFor(lead.id)).toHaveLength(1)
  })

  it('landlines get no SMS; a lead with neither mobile nor email starts nothing', async () => {
    const landline = await createViaMcp({ name: 'Office', phone: '(02) 9876 5432', email: 'office@example.com' })
    await temporal.workflow.getHandle(instantResponseWorkflowId({ companyId: company.company_id, leadId: landline.id })).result()
    expect((await messagesFor(landline.id)).map((m) => m.channel)).toEqual(['email'])
    const silent = await createViaMcp({ name: 'No Contact' })
    const [row] = await app.owner`select count(*)::int as n from workflow_outbox where workflow_id like ${'%' + silent.id}`
    expect(row!.n).toBe(0)
  })
})

describe('crash between commit and workflow start', () => {
  let api: ApiProcess | undefined
  afterAll(() => killApiProcess(api))

  it('the relay starts the workflow the outbox still holds, exactly once', async () => {
    // A second API process on the same database, told to die right after committing, before starting.
    api = await startApiProcess(app, { FAILPOINT: 'before-workflow-start' })
    const exited = new Promise<NodeJS.Signals | null>((resolve) => api!.child.once('exit', (_code, signal) => resolve(signal)))

    const attempt = await fetch(`${api.base}/api/v1/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${company.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Crash Test', phone: '0412 000 111' }),
    }).then(() => 'answered', () => 'connection lost')
    expect(attempt).toBe('connection lost')
    expect(await exited).toBe('SIGKILL')

    // The lead and its outbox row were committed; the workflow never started.
    const [lead] = await app.owner`select id, status from leads where name = 'Crash Test'`
    expect(lead).toMatchObject({ status: 'New' })
    const workflowId = instantResponseWorkflowId({ companyId: company.company_id, leadId: lead!.id })
    const [pending] = await app.owner`select started_at from workflow_outbox where workflow_id = ${workflowId}`
    expect(pending!.started_at).toBeNull()
    expect(await runsOf(workflowId)).toHaveLength(0)

    // The relay (in the surviving process) starts it, once; a second pass finds nothing to do.
    expect(await app.runtime.deps.workflows.relayOnce(0)).toBe(1)
    expect(await app.runtime.deps.workflows.relayOnce(0)).toBe(0)
    await temporal.workflow.getHandle(workflowId).result()
    expect(await runsOf(workflowId)).toHaveLength(1)
    expect((await messagesFor(lead!.id)).map((m) => m.channel)).toEqual(['sms'])
    expect(await leadStatus(lead!.id)).toBe('Contacted')
  })
})
