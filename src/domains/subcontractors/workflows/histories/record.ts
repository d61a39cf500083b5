// Records the dispatch workflow's replay fixture (run by `npm run record-histories`): one run that
// goes through each of its ways of moving on, a decline (the page's signal), a timeout (the timer)
// and an accept, on the real test app with an offer timeout of two seconds; and one held for the
// owner's approval (the approval gate's update), approved, then accepted.
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from '../../../../../test/helpers/app.js'
import { connectHttp } from '../../../../../test/helpers/mcp.js'
import { tool } from '../../../../../test/helpers/tools.js'
import { waitFor } from '../../../../../test/helpers/wait.js'
import { writeFixtures, type HistoryFixture } from '../../../../../test/replay/histories.js'
import { connectClient } from '../../../../temporal/connection.js'

let app: TestApp
let temporal: Client
let client: McpClient
/** Written together at the end: a recording replaces every fixture of its workflow type. */
const recorded: Omit<HistoryFixture, 'name'>[] = []
const keep = async (workflowId: string, fixtureCase: string) => {
  const handle = temporal.workflow.getHandle(workflowId)
  recorded.push({ workflowType: 'dispatch', workflowId, case: fixtureCase, history: await handle.fetchHistory() })
}

beforeAll(async () => {
  app = await startTestApp({ config: { DISPATCH_OFFER_TIMEOUT_MS: 2000 } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  if (recorded.length === 2) writeFixtures(recorded)
  await client?.close()
  await temporal?.connection.close()
  await app?.stop()
})

it('records dispatch: declined, timed out, then accepted', async () => {
  const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  const { lead } = await tool(client, 'leads.create', { name: 'Replay Client', phone: '0412 987 600' })
  const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Replay job', amount: 100 })
  const ids: string[] = []
  for (const [i, name] of ['Ann Amps', 'Bob Volt', 'Cat Watts'].entries()) {
    const { subcontractor } = await tool(client, 'subcontractors.register', {
      name, trades: ['electrical'], phone: `0412 000 10${i}`, licence_number: 'L-1', licence_expiry: '2099-01-31', policy_number: 'PL-1', insurance_expiry: '2099-01-31',
    })
    await tool(client, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'verify' })
    ids.push(subcontractor.id)
  }
  const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: ids })
  // The nth offer's page token, read from its SMS through comms.list (oldest last).
  const offer = async (n: number) => {
    const sms = await waitFor(async () => (await tool(client, 'comms.list', { job_id: job.id, channel: 'sms', message_type: 'dispatch_offer' })).messages as { body: string }[], (m) => m.length >= n, 20_000)
    return sms[sms.length - n]!.body.match(/\/d\/([A-Za-z0-9_-]+)/)![1]!
  }
  const post = (token: string, what: string) => fetch(`${app.url}/d/${token}/${what}`, { method: 'POST', redirect: 'manual' })
  await post(await offer(1), 'decline')
  await offer(2) // left unanswered: times out
  await post(await offer(3), 'accept')
  expect(await temporal.workflow.getHandle(out.workflow_id).result()).toMatchObject({ status: 'accepted', subcontractorId: ids[2] })
  await keep(out.workflow_id, 'declined-timed-out-accepted')
}, 60_000)

it('records dispatch: held for approval, approved, then accepted', async () => {
  const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const owner = await connectHttp(app, company.api_key)
  try {
    await tool(owner, 'company.update_profile', { dispatch_requires_approval: true })
    const { lead } = await tool(owner, 'leads.create', { name: 'Replay Client', phone: '0412 987 601' })
    const { job } = await tool(owner, 'jobs.create', { lead_id: lead.id, title: 'Replay job', amount: 100 })
    const { subcontractor } = await tool(owner, 'subcontractors.register', {
      name: 'Ann Amps', trades: ['electrical'], phone: '0412 000 110', licence_number: 'L-1', licence_expiry: '2099-01-31', policy_number: 'PL-1', insurance_expiry: '2099-01-31',
    })
    await tool(owner, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'verify' })
    const out = await tool(owner, 'subcontractors.dispatch', { job_id: job.id, candidates: [subcontractor.id] })
    await waitFor(() => tool(owner, 'workflows.pending_actions', { workflow_id: out.workflow_id }), (r) => r.actions.length === 1, 20_000)
    await tool(owner, 'workflows.approve_action', { action_id: out.pending_action_id })
    const sms = await waitFor(async () => (await tool(owner, 'comms.list', { job_id: job.id, channel: 'sms', message_type: 'dispatch_offer' })).messages as { body: string }[], (m) => m.length >= 1, 20_000)
    await fetch(`${app.url}/d/${sms[0]!.body.match(/\/d\/([A-Za-z0-9_-]+)/)![1]!}/accept`, { method: 'POST', redirect: 'manual' })
    expect(await temporal.workflow.getHandle(out.workflow_id).result()).toMatchObject({ status: 'accepted', subcontractorId: subcontractor.id })
    await keep(out.workflow_id, 'approved-accepted')
  } finally {
    await owner.close()
  }
}, 60_000)
