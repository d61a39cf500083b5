// subcontractors.dispatch on the real service and Temporal dev server, with an offer timeout of a few
// seconds (DISPATCH_OFFER_TIMEOUT_MS): offers go one at a time by SMS (counted at communications by
// their idempotency keys) with a link to the accept/decline page; an accept gives the job its
// subcontractor, a decline or timeout moves on, nobody left tells the owner, a cancelled job stops it;
// a suspended subcontractor or an expired licence or insurance is never offered, with the reason.
import { afterAll, beforeAll, describe, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'

const TIMEOUT_MS = 5000
let app: TestApp
let temporal: Client
const clients: McpClient[] = []

beforeAll(async () => {
  app = await startTestApp({ config: { DISPATCH_OFFER_TIMEOUT_MS: TIMEOUT_MS } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await temporal?.connection.close()
  await app?.stop()
})

const FUTURE = '2099-06-30'

/** A company of its own (its subcontractors are the candidates), with a job at a Parramatta address. */
async function setup() {
  const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const client = await connectHttp(app, company.api_key)
  clients.push(client)
  const { lead } = await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654' })
  const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Switchboard upgrade', amount: 440, address: '12 Church St, Parramatta NSW 2150' })
  return { company, client, job }
}

/** A subcontractor moved to `status` (active by default) with documents current unless told. */
async function sub(client: McpClient, name: string, phone: string, opts: { status?: 'active' | 'suspended'; licence_expiry?: string; insurance_expiry?: string } = {}) {
  const { subcontractor } = await tool(client, 'subcontractors.register', {
    name, trades: ['electrical'], phone, email: `${name.split(' ')[0]!.toLowerCase()}@example.com.au`, licence_number: 'L-1', licence_state: 'NSW',
    licence_expiry: opts.licence_expiry ?? FUTURE, insurer: 'QBE', policy_number: 'PL-1', insurance_expiry: opts.insurance_expiry ?? FUTURE, service_suburbs: ['parramatta'],
  })
  await tool(client, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'verify' })
  await tool(client, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'activate' })
  if (opts.status === 'suspended') await tool(client, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'suspend', reason: 'complaint' })
  return subcontractor as { id: string; name: string }
}

const offers = (jobId: string) => app.owner<{ subcontractor_id: string; status: string; reason: string | null; token: string; offered_at: Date; answered_at: Date | null }[]>`
  select o.subcontractor_id, o.status, o.reason, o.token, o.offered_at, o.answered_at from dispatch_offers o join dispatches d on d.id = o.dispatch_id
  where d.job_id = ${jobId} order by o.position`
const offerSms = (jobId: string) => app.owner<{ to_address: string; body: string; idempotency_key: string }[]>`
  select to_address, body, idempotency_key from communications where job_id = ${jobId} and message_type = 'dispatch_offer' and channel = 'sms' order by created_at`
const dispatchRow = async (jobId: string) => (await app.owner<{ status: string; outcome: string | null; excluded: { subcontractor_id: string; reason: string }[] }[]>`
  select status, outcome, excluded from dispatches where job_id = ${jobId}`)[0]!
const jobSub = async (jobId: string) => (await app.owner<{ subcontractor_id: string | null }[]>`select subcontractor_id from jobs where id = ${jobId}`)[0]!.subcontractor_id
const events = (companyId: string) => app.owner<{ event_type: string }[]>`select event_type from event_outbox where company_id = ${companyId} and event_type like 'dispatch.%' order by created_at, event_type`
const answer = (token: string, what: 'accept' | 'decline') => fetch(`${app.url}/d/${token}/${what}`, { method: 'POST', redirect: 'manual' })
const result = (workflowId: string) => temporal.workflow.getHandle(workflowId).result()

/** Waits for the nth offer (1-based) to be out: its row and its SMS. */
async function nthOffer(jobId: string, n: number) {
  await waitFor(async () => (await offers(jobId)).filter((o) => o.status !== 'skipped').length >= n && (await offerSms(jobId)).length >= n, (ready) => ready, 20_000)
  return (await offers(jobId)).filter((o) => o.status !== 'skipped')[n - 1]!
}

describe.concurrent('subcontractors.dispatch', () => {
  it('accept first time: the job gets the subcontractor, one SMS with the offer page link, the events recorded', async ({ expect }) => {
    const { company, client, job } = await setup()
    expect(job.subcontractor_id).toBeNull()
    const ann = await sub(client, 'Ann Amps', '0412 000 001')
    const dry = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id], dry_run: true })
    expect(dry.dry_run).toBe(true)
    expect(dry.messages.find((m: { channel: string }) => m.channel === 'sms').text).toContain('Switchboard upgrade')
    expect(await offers(job.id)).toHaveLength(0)
    const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id] })
    expect(out.workflow_id).toBe(`dispatch:${company.company_id}:${job.id}:1`)
    const offer = await nthOffer(job.id, 1)
    const sms = await offerSms(job.id)
    expect(sms).toHaveLength(1)
    expect(sms[0]!.to_address).toBe('+61412000001')
    expect(sms[0]!.body).toContain(`/d/${offer.token}`)
    const page = await fetch(`${app.url}/d/${offer.token}`)
    expect(await page.text()).toContain('id="accept"')
    // Visible in Temporal by the company's CompanyId search attribute.
    await waitFor(async () => {
      const found: string[] = []
      for await (const wf of temporal.workflow.list({ query: `CompanyId = "${company.company_id}" AND WorkflowType = "dispatch"` })) found.push(wf.workflowId)
      return found
    }, (found) => found.includes(out.workflow_id), 15_000)
    expect((await answer(offer.token, 'accept')).status).toBe(303)
    const r = await result(out.workflow_id)
    expect(r).toMatchObject({ status: 'accepted', subcontractorId: ann.id })
    expect(await jobSub(job.id)).toBe(ann.id)
    expect((await offers(job.id)).map((o) => o.status)).toEqual(['accepted'])
    // What the owner sees (there is no jobs.get: a job is read through jobs.list): the accepting subcontractor.
    const listed = (await tool(client, 'jobs.list', { lead_id: job.lead_id })).jobs.find((j: { id: string }) => j.id === job.id)
    expect(listed.subcontractor_id).toBe(ann.id)
    expect((await dispatchRow(job.id)).status).toBe('accepted')
    expect((await events(company.company_id)).map((e) => e.event_type).sort()).toEqual(['dispatch.accepted', 'dispatch.offered'])
    // The page now says it is answered, and a second click changes nothing.
    expect(await (await fetch(`${app.url}/d/${offer.token}`)).text()).toContain('You accepted this job')
  })

  it('decline then fallback: the second candidate is offered and accepts', async ({ expect }) => {
    const { client, job } = await setup()
    const ann = await sub(client, 'Ann Amps', '0412 000 011')
    const bob = await sub(client, 'Bob Volt', '0412 000 012')
    const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id, bob.id] })
    await answer((await nthOffer(job.id, 1)).token, 'decline')
    const second = await nthOffer(job.id, 2)
    expect(second.subcontractor_id).toBe(bob.id)
    await answer(second.token, 'accept')
    expect(await result(out.workflow_id)).toMatchObject({ status: 'accepted', subcontractorId: bob.id })
    expect((await offers(job.id)).map((o) => [o.subcontractor_id, o.status])).toEqual([[ann.id, 'declined'], [bob.id, 'accepted']])
    expect((await offerSms(job.id)).map((s) => s.to_address)).toEqual(['+61412000011', '+61412000012'])
  })

  it('timeout then fallback: an unanswered offer times out after the configured time and the next is offered', async ({ expect }) => {
    const { client, job } = await setup()
    const ann = await sub(client, 'Ann Amps', '0412 000 021')
    const bob = await sub(client, 'Bob Volt', '0412 000 022')
    const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id, bob.id] })
    const first = await nthOffer(job.id, 1)
    const second = await nthOffer(job.id, 2)
    const rows = await offers(job.id)
    expect(rows[0]).toMatchObject({ status: 'timed_out' })
    expect(rows[0]!.answered_at!.getTime() - first.offered_at.getTime()).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
    // A late click on the expired offer changes nothing.
    await answer(first.token, 'accept')
    expect((await offers(job.id))[0]!.status).toBe('timed_out')
    await answer(second.token, 'accept')
    expect(await result(out.workflow_id)).toMatchObject({ status: 'accepted', subcontractorId: bob.id })
    expect(await jobSub(job.id)).toBe(bob.id)
  })

  it('nobody left: every candidate declines, the dispatch is exhausted and the owner gets a reminder', async ({ expect }) => {
    const { company, client, job } = await setup()
    const ann = await sub(client, 'Ann Amps', '0412 000 031')
    const bob = await sub(client, 'Bob Volt', '0412 000 032')
    const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id, bob.id] })
    await answer((await nthOffer(job.id, 1)).token, 'decline')
    await answer((await nthOffer(job.id, 2)).token, 'decline')
    expect(await result(out.workflow_id)).toMatchObject({ status: 'exhausted', subcontractorId: null })
    expect((await dispatchRow(job.id)).status).toBe('exhausted')
    expect(await jobSub(job.id)).toBeNull()
    const reminders = await app.owner`select title from reminders where company_id = ${company.company_id} and title like 'Nobody took the job%'`
    expect(reminders).toHaveLength(1)
    expect((await events(company.company_id)).map((e) => e.event_type)).toContain('dispatch.exhausted')
  })

  it('job cancelled mid-offer: the open offer is withdrawn, nobody else is offered and an accept is refused', async ({ expect }) => {
    const { client, job } = await setup()
    const ann = await sub(client, 'Ann Amps', '0412 000 041')
    const bob = await sub(client, 'Bob Volt', '0412 000 042')
    const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id, bob.id] })
    const first = await nthOffer(job.id, 1)
    const cancelledAt = Date.now()
    await tool(client, 'jobs.update', { job_id: job.id, status: 'Cancelled' })
    // The cancel reaches the run at once (not at the offer's timeout).
    expect(await result(out.workflow_id)).toMatchObject({ status: 'cancelled' })
    expect(Date.now() - cancelledAt).toBeLessThan(TIMEOUT_MS)
    await answer(first.token, 'accept')
    expect((await offers(job.id)).map((o) => o.status)).toEqual(['withdrawn'])
    expect(await offerSms(job.id)).toHaveLength(1)
    expect(await jobSub(job.id)).toBeNull()
    expect((await dispatchRow(job.id)).status).toBe('cancelled')
  })

  it('a suspended, expired-licence or expired-insurance subcontractor is never offered, with the reason recorded', async ({ expect }) => {
    const { client, job } = await setup()
    const suspended = await sub(client, 'Sue Spended', '0412 000 051', { status: 'suspended' })
    const lapsedLicence = await sub(client, 'Lenny Lapsed', '0412 000 052', { licence_expiry: '2020-01-31' })
    const lapsedCover = await sub(client, 'Ivy Uninsured', '0412 000 053', { insurance_expiry: '2020-01-31' })
    const ok = await sub(client, 'Ann Amps', '0412 000 054')
    const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [suspended.id, lapsedLicence.id, lapsedCover.id, ok.id] })
    expect(out.candidates.map((c: { subcontractor_id: string }) => c.subcontractor_id)).toEqual([ok.id])
    const reasons = Object.fromEntries(out.excluded.map((x: { subcontractor_id: string; reason: string }) => [x.subcontractor_id, x.reason]))
    expect(reasons[suspended.id]).toContain('suspended')
    expect(reasons[lapsedLicence.id]).toBe('licence expired 2020-01-31')
    expect(reasons[lapsedCover.id]).toBe('insurance expired 2020-01-31')
    expect((await dispatchRow(job.id)).excluded).toHaveLength(3)
    await answer((await nthOffer(job.id, 1)).token, 'decline')
    expect(await result(out.workflow_id)).toMatchObject({ status: 'exhausted' })
    expect((await offerSms(job.id)).map((s) => s.to_address)).toEqual(['+61412000054'])
    // Only these never-eligible ones left: refused up front, each reason named.
    const refused = await toolError(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [suspended.id, lapsedLicence.id] })
    expect(refused.error).toBe('conflict')
    expect(refused.message).toContain('licence expired 2020-01-31')
  })
  it('owner approval on: nothing is offered until approved, then the first offer goes and approve_action says so', async ({ expect }) => {
    const { client, job } = await setup()
    await tool(client, 'company.update_profile', { dispatch_requires_approval: true })
    const ann = await sub(client, 'Ann Amps', '0412 000 061')
    const dry = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id], dry_run: true })
    expect(dry).toMatchObject({ held_for_approval: true, pending_action_id: null })
    const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id] })
    expect(out.held_for_approval).toBe(true)
    expect(out.next_steps.map((s: { tool: string }) => s.tool)).toContain('workflows.approve_action')
    // Listed with who would get what; nothing sent while it waits.
    const listed = await waitFor(() => tool(client, 'workflows.pending_actions', { workflow_id: out.workflow_id }), (r) => r.actions.length === 1, 15_000)
    expect(listed.actions[0]).toMatchObject({ id: out.pending_action_id, workflow: 'subcontractor_dispatch', status: 'pending' })
    expect(listed.actions[0].messages.map((m: { to: string }) => m.to)).toContain('+61412000061')
    expect(await offerSms(job.id)).toHaveLength(0)
    expect(await offers(job.id)).toHaveLength(0)
    const approved = await tool(client, 'workflows.approve_action', { action_id: out.pending_action_id })
    expect(approved.action.status).toBe('executed')
    expect(approved.action.outcome.sent.map((m: { channel: string }) => m.channel)).toContain('sms')
    const offer = await nthOffer(job.id, 1)
    expect(await offerSms(job.id)).toHaveLength(1)
    await answer(offer.token, 'accept')
    expect(await result(out.workflow_id)).toMatchObject({ status: 'accepted', subcontractorId: ann.id })
  })

  it('owner approval rejected: the dispatch ends not_approved and nobody is offered', async ({ expect }) => {
    const { client, job } = await setup()
    await tool(client, 'company.update_profile', { dispatch_requires_approval: true })
    const ann = await sub(client, 'Ann Amps', '0412 000 071')
    const out = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id] })
    await waitFor(() => tool(client, 'workflows.pending_actions', { workflow_id: out.workflow_id }), (r) => r.actions.length === 1, 15_000)
    const rejected = await tool(client, 'workflows.reject_action', { action_id: out.pending_action_id, reason: 'I will do it myself' })
    expect(rejected.action.status).toBe('rejected')
    expect(await result(out.workflow_id)).toMatchObject({ status: 'not_approved', offers: [] })
    expect(await dispatchRow(job.id)).toMatchObject({ status: 'not_approved', outcome: expect.stringContaining('rejected') })
    expect(await offers(job.id)).toHaveLength(0)
    expect(await offerSms(job.id)).toHaveLength(0)
    // The job may be dispatched again (the company can turn approval off first).
    await tool(client, 'company.update_profile', { dispatch_requires_approval: false })
    const again = await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: [ann.id] })
    expect(again).toMatchObject({ held_for_approval: false, pending_action_id: null })
    await answer((await nthOffer(job.id, 1)).token, 'decline')
    expect(await result(again.workflow_id)).toMatchObject({ status: 'exhausted' })
  })
})
