// Recorded workflow histories, committed as fixtures (test/fixtures/histories/<workflowType>-<case>.json)
// by `npm run record-histories` (test/replay/record-histories.ts) and replayed by test/replay.test.ts
// against the workflow code as it is now. A fixture is a real run's history, so a change that
// makes the code decide differently on the same events fails the replay.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { temporal } from '@temporalio/proto'

type History = temporal.api.history.v1.IHistory
const { History } = temporal.api.history.v1
/**
 * The history as JSON and back: protobuf's object form with enums by name (EVENT_TYPE_TIMER_STARTED),
 * 64-bit numbers as strings and payload bytes as base64, so a fixture reads and diffs as text.
 */
const TO_JSON = { enums: String, longs: String, bytes: String, defaults: false } as const

export const HISTORIES_DIR = fileURLToPath(new URL('../fixtures/histories/', import.meta.url))

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
  if (!existsSync(HISTORIES_DIR)) return []
  return readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json')).sort().map((file) => {
    const stored = JSON.parse(readFileSync(HISTORIES_DIR + file, 'utf8')) as Omit<HistoryFixture, 'name' | 'history'> & { history: unknown }
    return { ...stored, name: file.slice(0, -'.json'.length), history: History.fromObject(stored.history as Record<string, unknown>) }
  })
}

/** Replaces every fixture with these (a re-recording drops cases no longer recorded). */
export function writeFixtures(fixtures: Omit<HistoryFixture, 'name'>[]): string[] {
  rmSync(HISTORIES_DIR, { recursive: true, force: true })
  mkdirSync(HISTORIES_DIR, { recursive: true })
  return fixtures.map((f) => {
    const name = `${f.workflowType}-${f.case}`
    const body = { workflowType: f.workflowType, workflowId: f.workflowId, case: f.case, history: History.toObject(History.fromObject(f.history as Record<string, unknown>), TO_JSON) }
    writeFileSync(`${HISTORIES_DIR}${name}.json`, `${JSON.stringify(body, null, 1)}\n`)
    return name
  })
}
