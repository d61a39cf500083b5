// The trial lifecycle runs as a real Temporal workflow, started through the outbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { waitFor } from './helpers/wait.js'
import { withTenant } from '../src/db/sql.js'
import { enqueueWorkflow } from '../src/temporal/outbox.js'
import { trialStart } from '../src/domains/billing/trial.js'
import { connectClient } from '../src/temporal/connection.js'
import { inject } from 'vitest'

let app: TestApp
beforeAll(async () => {
  // Trials of three seconds so the real workflow's timer fires within the test.
  app = await startTestApp({ config: { TRIAL_DAYS: 3 / 86_400 } })
})
afterAll(() => app?.stop())


// Both wait out a three-second trial on a company of their own: they run together.
describe.concurrent('trial lifecycle workflow', () => {
  it('expires an unpaid trial, visible by CompanyId in Temporal, and the company falls back to free', async ({ expect }) => {
    const company = await onboard(app, { plan: 'business' })
    const client = await connectClient(inject('temporalAddress'), 'default')
    try {
      // One run per trial period: the id carries the period's end.
      const workflowId = `trial:${company.company_id}:${company.plan.subscription.trial_ends_at}`
      const handle = client.workflow.getHandle(workflowId)
      const result = await handle.result()
      expect(result).toEqual({ expired: true })
      const runs = await waitFor(
        async () => {
          const found: string[] = []
          for await (const wf of client.workflow.list({ query: `CompanyId = "${company.company_id}"` })) found.push(wf.workflowId)
          return found
        },
        (found) => found.length > 0,
      )
      expect(runs).toEqual([workflowId])
    } finally {
      await client.connection.close()
    }
    const billing = await app.call('GET', '/api/v1/billing', { key: company.api_key })
    expect(billing.body.subscription).toMatchObject({ status: 'trial_expired', effective_plan_slug: 'free' })
    expect(billing.body.trial).toMatchObject({ active: false, days_remaining: 0 })
    const [row] = await app.owner`select started_at, attempts from workflow_outbox where company_id = ${company.company_id}`
    expect(row!.started_at).not.toBeNull()
  })

  it('leaves a trial alone when the company paid before it ended', async ({ expect }) => {
    const company = await onboard(app, { plan: 'professional' })
    const checkout = await app.call('POST', '/api/v1/billing/checkout', { key: company.api_key, body: { plan_slug: 'professional' } })
    await fetch(`${checkout.body.checkout_url}/pay`, { method: 'POST' })
    const client = await connectClient(inject('temporalAddress'), 'default')
    try {
      expect(await client.workflow.getHandle(`trial:${company.company_id}:${company.plan.subscription.trial_ends_at}`).result()).toEqual({ expired: false })
    } finally {
      await client.connection.close()
    }
    const billing = await app.call('GET', '/api/v1/billing', { key: company.api_key })
    expect(billing.body.subscription.status).toBe('active')
  })

})

// Alone: its relay passes take every company's unstarted rows.
describe('the outbox relay', () => {
  it('the relay starts what the outbox still holds exactly once, and a second start is harmless', async () => {
    const company = await onboard(app, { plan: 'free' })
    const deps = app.runtime.deps
    // Commit the outbox row without the after-commit start: what a crash at that moment leaves.
    const spec = trialStart(company.company_id, new Date(Date.now() - 1000))
    const item = await withTenant(deps.db, company.company_id, (tx) => enqueueWorkflow(tx, spec))
    await deps.workflows.stopRelay() // drive passes by hand
    expect(await deps.workflows.relayOnce(0)).toBe(1)
    expect(await deps.workflows.relayOnce(0)).toBe(0)
    expect(await deps.workflows.dispatch(item)).toBe(true) // started again: no error, no second run
    const client = await connectClient(inject('temporalAddress'), 'default')
    try {
      const runs: string[] = []
      for await (const wf of client.workflow.list({ query: `WorkflowId = "${spec.workflowId}"` })) runs.push(wf.runId)
      expect(runs).toHaveLength(1)
    } finally {
      await client.connection.close()
    }
    deps.workflows.startRelay(app.config.OUTBOX_RELAY_INTERVAL_MS)
  })
})
