// Recorded workflow histories, committed as fixtures beside their workflow
// (src/domains/<domain>/workflows/histories/<workflowType>-<case>.json) by `npm run record-histories` (test/replay/record-histories.ts) and replayed by test/replay.test.ts
// against the workflow code as it is now. A fixture is a real run's history, so a change that
// makes the code decide differently on the same events fails the replay.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Client } from '@temporalio/client'
import { temporal } from '@temporalio/proto'
import { workflowModules } from '../../src/temporal/workflow-bundle.js'

type History = temporal.api.history.v1.IHistory
const { History } = temporal.api.history.v1
/**
 * The history as JSON and back: protobuf's object form with enums by name (EVENT_TYPE_TIMER_STARTED),
 * 64-bit numbers as strings and payload bytes as base64, so a fixture reads and diffs as text.
 */
const TO_JSON = { enums: String, longs: String, bytes: String, defaults: false } as const

/** Where a workflow type's fixtures live: histories/ beside its module. */
export function historiesDir(workflowType: string): string {
  const module = workflowModules().find((m) => m.type === workflowType)
  if (!module) throw new Error(`no workflow module for ${workflowType}`)
  return join(dirname(module.path), 'histories')
}

export interface HistoryFixture {
  /** The file name without .json: <workflowType>-<case>. */
  name: string
  workflowType: string
  workflowId: string
  /** What the run shows, e.g. "approved", "stopped-by-payment", "retried". */
  case: string
  history: History
}

export function readFixtures(): HistoryFixture[] {
  const fixtures: HistoryFixture[] = []
  for (const { type, path } of workflowModules()) {
    const dir = join(dirname(path), 'histories')
    if (!existsSync(dir)) continue
    for (const file of readdirSync(dir).filter((f) => f.startsWith(`${type}-`) && f.endsWith('.json')).sort()) {
      const stored = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Omit<HistoryFixture, 'name' | 'history'> & { history: unknown }
      fixtures.push({ ...stored, name: file.slice(0, -'.json'.length), history: History.fromObject(stored.history as Record<string, unknown>) })
    }
  }
  return fixtures
}

/** Replaces the fixtures of every workflow type recorded here with these (a re-recording drops cases no longer recorded). */
export function writeFixtures(fixtures: Omit<HistoryFixture, 'name'>[]): string[] {
  for (const type of new Set(fixtures.map((f) => f.workflowType))) {
    const dir = historiesDir(type)
    if (existsSync(dir)) for (const file of readdirSync(dir)) if (file.startsWith(`${type}-`)) rmSync(join(dir, file))
  }
  return fixtures.map((f) => {
    const name = `${f.workflowType}-${f.case}`
    const dir = historiesDir(f.workflowType)
    mkdirSync(dir, { recursive: true })
    const body = { workflowType: f.workflowType, workflowId: f.workflowId, case: f.case, history: History.toObject(History.fromObject(f.history as Record<string, unknown>), TO_JSON) }
    writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(body, null, 1)}\n`)
    return name
  })
}

/** Fetches a finished run's history and writes it as the fixture of its type and case (a folder's own recorder uses this). */
export async function recordRun(temporal: Client, workflowId: string, fixtureCase: string): Promise<string> {
  const handle = temporal.workflow.getHandle(workflowId)
  const { type } = await handle.describe()
  await handle.result()
  return writeFixtures([{ workflowType: type, workflowId, case: fixtureCase, history: await handle.fetchHistory() }])[0]!
}
