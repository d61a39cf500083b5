// workflows.sync_contact on the real service without an accounting connection: the tool says so
// honestly, pushes nothing, still checks the lead (not_found across companies) and records the run
// for workflows.list. With a connection it pushes: test/integration-sync.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let ca: McpClient
let cb: McpClient

beforeAll(async () => {
  app = await startTestApp()
  a = await onboard(app)
  b = await onboard(app)
  ca = await connectHttp(app, a.api_key)
  cb = await connectHttp(app, b.api_key)
})
afterAll(async () => {
  await ca?.close()
  await cb?.close()
  await app?.stop()
})

describe('workflows.sync_contact without an accounting integration', () => {
  it('pushes nothing, says no accounting integration is connected and what to do, and records the run', async () => {
    const { lead } = await tool(ca, 'leads.create', { name: 'Jordan Lee', email: 'jordan@example.com.au' })
    const res = await tool(ca, 'workflows.sync_contact', { lead_id: lead.id })
    expect(res).toMatchObject({ synced: false, leadId: lead.id, contactType: 'lead', name: 'Jordan Lee', results: [] })
    expect(res.message).toMatch(/^No accounting integration is connected, so nothing was pushed\./)
    expect(res.message).toMatch(/integrations\.available_providers/)
    // The integrations domain really has nothing connected for this company.
    expect((await tool(ca, 'integrations.list_connections', {})).connections).toEqual([])
    const [run] = await app.owner`select company_id, automation, subject_type, subject_id, status, outcome, finished_at from automation_runs where workflow_id = ${res.temporalWorkflowId}`
    expect(run).toMatchObject({
      company_id: a.company_id, automation: 'sync_contact', subject_type: 'lead', subject_id: lead.id,
      status: 'stopped', outcome: 'nothing pushed: no accounting integration is connected',
    })
    expect(run!.finished_at).toBeInstanceOf(Date)
    const listed = await tool(ca, 'workflows.list', {})
    const entry = listed.workflows.find((w: any) => w.workflowId === 'sync_contact')
    expect(entry.lastRuns[0]).toMatchObject({ temporalWorkflowId: res.temporalWorkflowId, status: 'stopped', subjectId: lead.id })
  })

  it('a lead with a job is a client', async () => {
    const { lead } = await tool(ca, 'leads.create', { name: 'Sam Client', phone: '0412 555 010' })
    await tool(ca, 'jobs.create', { lead_id: lead.id, title: 'Hot water service', amount: 1200 })
    expect(await tool(ca, 'workflows.sync_contact', { lead_id: lead.id })).toMatchObject({ contactType: 'client', synced: false })
  })

  it("another company's lead, an id that is not one, and any connection_id are not_found; nothing is recorded", async () => {
    const { lead } = await tool(ca, 'leads.create', { name: 'Private to A' })
    const before = (await app.owner`select count(*)::int as n from automation_runs where automation = 'sync_contact'`)[0]!.n
    expect(await toolError(cb, 'workflows.sync_contact', { lead_id: lead.id })).toMatchObject({ error: 'not_found' })
    expect(await toolError(ca, 'workflows.sync_contact', { lead_id: 'not-an-id' })).toMatchObject({ error: 'not_found' })
    const connection = await toolError(ca, 'workflows.sync_contact', { lead_id: lead.id, connection_id: '6f1c2a8e-0000-4000-8000-000000000001' })
    expect(connection).toMatchObject({ error: 'not_found' })
    expect(connection.message).toMatch(/^Connection was not found\. No accounting integration is connected/)
    expect((await app.owner`select count(*)::int as n from automation_runs where automation = 'sync_contact'`)[0]!.n).toBe(before)
  })

  it('turned off, it is a conflict saying how to turn it on', async () => {
    const { lead } = await tool(cb, 'leads.create', { name: 'B lead' })
    await tool(cb, 'workflows.toggle', { workflow_id: 'sync_contact', enabled: false })
    const off = await toolError(cb, 'workflows.sync_contact', { lead_id: lead.id })
    expect(off).toMatchObject({ error: 'conflict' })
    expect(off.message).toMatch(/workflows\.toggle/)
  })
})
