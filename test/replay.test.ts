// Replay tests that can fail. The histories of real runs, recorded once and committed
// (src/domains/*/workflows/histories/, beside each workflow; re-recorded by `npm run record-histories`), are replayed against the
// workflow bundle as the code is now: a change that makes a workflow decide differently on the
// same events (a new activity, a reordered timer, a signal handled later) fails here. There must be
// a fixture for every workflow type the composition defines, the named cases must still hold what
// makes them that case, and the last test shows the check failing on a deliberately
// non-deterministic copy of one workflow.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Worker, type WorkflowBundle } from '@temporalio/worker'
import { temporal as proto } from '@temporalio/proto'
import { DeterminismViolationError } from '@temporalio/workflow'
import { composition } from '../src/domains/index.js'
import { workflowType } from '../src/temporal/contract.js'
import { workflowBundle } from '../src/temporal/worker.js'
import { bundleWorkflows, workflowModules } from '../src/temporal/workflow-bundle.js'
import { readFixtures, type HistoryFixture } from './replay/histories.js'

const EventType = proto.api.enums.v1.EventType
const fixtures = readFixtures()

const count = (fixture: HistoryFixture, type: number) => fixture.history.events!.filter((e) => e.eventType === type).length
const fixture = (name: string) => {
  const found = fixtures.find((f) => f.name === name)
  if (!found) throw new Error(`no fixture ${name}: run npm run record-histories`)
  return found
}

async function replay(bundle: WorkflowBundle, histories: HistoryFixture[]) {
  const results: { name: string; error?: Error }[] = []
  const byId = new Map(histories.map((f) => [f.workflowId, f.name]))
  for await (const result of Worker.runReplayHistories({ workflowBundle: bundle, replayName: 'fixtures' }, histories)) {
    results.push({ name: byId.get(result.workflowId)!, error: result.error })
  }
  return results
}

describe('recorded histories', () => {
  it('exist for every workflow type the composition defines, and for no other', () => {
    const defined = composition.workflows.map(workflowType).sort()
    const recorded = [...new Set(fixtures.map((f) => f.workflowType))].sort()
    expect(defined.filter((t) => !recorded.includes(t)), 'workflow types with no history (run npm run record-histories)').toEqual([])
    expect(recorded).toEqual(defined)
  })

  it('hold what makes each named case that case', () => {
    // A decision arrives as a Temporal Update while the run waits on its expiry timer.
    for (const name of ['teamNotify-approved', 'teamNotify-rejected', 'referralOffer-approved']) {
      expect(count(fixture(name), EventType.EVENT_TYPE_TIMER_STARTED), name).toBe(1)
      expect(count(fixture(name), EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED), name).toBe(1)
    }
    // A follow-up, a chase and a job flow woken by their signal.
    for (const name of ['quoteFollowUp-stopped-by-accept', 'invoiceChase-stopped-by-payment', 'quoteToInvoice-nudged-by-job-complete']) {
      expect(count(fixture(name), EventType.EVENT_TYPE_TIMER_STARTED), name).toBeGreaterThanOrEqual(1)
      expect(count(fixture(name), EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED), name).toBeGreaterThanOrEqual(1)
    }
    for (const name of ['quoteFollowUp-completed', 'invoiceChase-completed']) {
      expect(count(fixture(name), EventType.EVENT_TYPE_TIMER_STARTED), name).toBeGreaterThanOrEqual(1)
      expect(count(fixture(name), EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED), name).toBe(0)
    }
    // Two failed attempts, each followed by its retry sleep, then the delivery (local activities are markers).
    expect(count(fixture('webhookDelivery-retried'), EventType.EVENT_TYPE_TIMER_STARTED)).toBe(2)
    expect(count(fixture('webhookDelivery-retried'), EventType.EVENT_TYPE_MARKER_RECORDED)).toBe(3)
    // The per-subscription delivery run (webhookDeliveries): a retry slept on its timer, a second
    // delivery woken by the dispatcher's signal, three passes (local activities: markers), then idle.
    const drained = fixture('webhookDeliveries-retried-signalled-idle')
    expect(count(drained, EventType.EVENT_TYPE_MARKER_RECORDED)).toBe(3)
    expect(count(drained, EventType.EVENT_TYPE_TIMER_STARTED)).toBeGreaterThanOrEqual(2)
    expect(count(drained, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)).toBeGreaterThanOrEqual(2)
    // Stopped by an unsubscribe while it waited on a retry's timer.
    expect(count(fixture('webhookDeliveries-stopped'), EventType.EVENT_TYPE_TIMER_FIRED)).toBe(1)
    expect(count(fixture('webhookDeliveries-stopped'), EventType.EVENT_TYPE_MARKER_RECORDED)).toBe(2)
    // The accounting sync: a Retry-After slept on a timer, a round asked for by a signal.
    expect(count(fixture('integrationSync-rate-limited-signalled-stopped'), EventType.EVENT_TYPE_TIMER_STARTED)).toBeGreaterThanOrEqual(1)
    expect(count(fixture('integrationSync-rate-limited-signalled-stopped'), EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)).toBeGreaterThanOrEqual(1)
    // Every recorded run ran to its end.
    for (const f of fixtures) expect(count(f, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED), f.name).toBe(1)
  })

  it('replay against the current workflow code without a nondeterminism or other error', async () => {
    const results = await replay(await workflowBundle(), fixtures)
    expect(results.filter((r) => r.error).map((r) => `${r.name}: ${r.error!.name}: ${r.error!.message}`)).toEqual([])
    expect(results.map((r) => r.name).sort()).toEqual(fixtures.map((f) => f.name).sort())
  }, 120_000)

  it('fail on a non-deterministic change: a copy of trialLifecycle that calls its activity before the timer', async () => {
    const original = workflowModules().find((m) => m.type === 'trialLifecycle')!
    const dir = mkdtempSync(join(tmpdir(), 'nondeterministic-workflows-'))
    try {
      // The copy lives outside the project: its relative imports point back at the originals.
      const code = readFileSync(original.path, 'utf8').replace(/(from ')(\.{1,2}\/[^']+)(')/g, (_all, pre: string, spec: string, post: string) => pre + resolve(dirname(original.path), spec) + post)
      const entry = 'export async function trialLifecycle(input: TrialLifecycleInput): Promise<TrialLifecycleResult> {\n'
      expect(code).toContain(entry)
      // An extra activity scheduled first, where the recorded run started its timer.
      const copy = join(dir, 'trial-lifecycle.ts')
      writeFileSync(copy, code.replace(entry, `${entry}  await expireTrialIfUnpaid({ companyId: input.companyId })\n`))
      const changed = await bundleWorkflows(workflowModules().map((m) => (m.type === original.type ? { ...m, path: copy } : m)))
      const trial = fixtures.filter((f) => f.workflowType === 'trialLifecycle')
      expect(trial.length).toBeGreaterThan(0)
      const results = await replay(changed, trial)
      expect(results).toHaveLength(trial.length)
      for (const r of results) {
        expect(r.error, r.name).toBeInstanceOf(DeterminismViolationError)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
