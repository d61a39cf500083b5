// The load suite's summary writer (bench/summary.ts) on fixture results, without running a bench:
// the results it reads, the README block it replaces (and what it leaves alone), the chart it
// draws, and the run it records. The benches themselves are too slow and noisy for npm test.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { END_MARKER, START_MARKER, goalRatio, replaceBetweenMarkers, writeSummary, type RunRecord, type Summary } from '../bench/summary.js'

const RUN: RunRecord = {
  id: 'run-1', quick: false, started_at: '2026-11-26T17:00:00.000Z', seconds: 754,
  benches: [
    { script: 'usage-vs-bare.ts', env: {}, exit_code: 0, seconds: 41.2 },
    { script: 'webhooks.ts', env: { TEMPORAL_DEV_STORE: 'memory' }, exit_code: 0, seconds: 90 },
    { script: 'webhooks.ts', env: { TEMPORAL_DEV_STORE: 'file' }, exit_code: 1, seconds: 12 },
    { script: 'lead-to-sms.ts', env: {}, exit_code: 0, seconds: 30 },
  ],
}
const common = { commit: 'abc1234567', node: 'v24.11.0', machine: { platform: 'linux x64', cpus: 2, cpu_model: 'Test CPU', load_average: [1, 1, 1] }, quick: false }
const FIXTURES: Record<string, object> = {
  'usage-vs-bare': {
    ...common, date: '2026-11-26T17:01:00.000Z', script: 'usage-vs-bare.ts', run_id: 'run-1',
    headline: { ratio_of: 'GET /usage ÷ bare Koa | same bytes', ratio: 0.031, better: 'higher', figures: { 'usage req/s': 1369, 'bare req/s': 45052 } },
    usage_endpoint: { requestsPerSecond: 1369 },
  },
  'webhooks-memory': {
    ...common, date: '2026-11-26T17:03:00.000Z', script: 'webhooks.ts', run_id: 'run-1',
    headline: { ratio_of: 'deliveries/s ÷ activity <alone> & x20', ratio: 1.4, better: 'higher', goal: '>= 100 deliveries/s', met: true, figures: { 'deliveries/s': 120, 'p99 ms': 95 } },
  },
  // Left from an earlier run: this run's webhooks-file failed.
  'webhooks-file': {
    ...common, date: '2026-11-20T10:00:00.000Z', script: 'webhooks.ts', run_id: 'older',
    headline: { ratio_of: 'deliveries/s ÷ activity alone', ratio: 0.07, better: 'higher', figures: { 'deliveries/s': 99 } },
  },
  'leads-vs-plain-koa': {
    ...common, date: '2026-11-26T17:02:00.000Z', script: 'leads-vs-plain-koa.ts', run_id: 'run-1',
    headline: { ratio_of: 'service ÷ plain', ratio: 0.72, better: 'higher', goal: '>= 0.8', met: false, figures: { 'service req/s': 1400, 'plain req/s': 1944 } },
  },
  'lead-to-sms': {
    ...common, date: '2026-11-26T17:04:00.000Z', script: 'lead-to-sms.ts', run_id: 'run-1',
    headline: { ratio_of: 'no baseline: lead -> SMS', ratio: null, better: 'lower', goal: 'every SMS within 30 s', met: true, figures: { 'p99 ms <&>': 225 } },
  },
  // Written before reportResult existed: no headline, machine as a string.
  'automations': { date: '2026-11-22T01:52:09.817Z', machine: 'linux x64, node v20.20.2', chases: 500 },
}
const ORDER = ['usage-vs-bare.ts', 'mcp-vs-rest-leads.ts', 'leads-vs-plain-koa.ts', 'lead-to-sms.ts', 'webhooks.ts']
const README = `# Benchmarks\n\nIntro kept.\n\n${START_MARKER}\nold table\n${END_MARKER}\n\n## After\n\nKept too.\n`

let dir: string
let resultsDir: string
let readmePath: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bench-summary-'))
  resultsDir = join(dir, 'results')
  readmePath = join(dir, 'README.md')
  writeFileSync(readmePath, README)
  // A previous summary in the folder is not read as a result.
  mkdirSync(resultsDir)
  writeFileSync(join(resultsDir, 'summary.json'), '{"results": []}')
  for (const [name, body] of Object.entries(FIXTURES)) writeFileSync(join(resultsDir, `${name}.json`), JSON.stringify(body))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const write = (run: RunRecord | null = RUN) => writeSummary({ resultsDir, readmePath, run, scriptOrder: ORDER, now: new Date('2026-11-26T17:20:00Z') })

describe('the load suite summary', () => {
  it('summary.json has every result in the runner order, with its headline and whether this run wrote it', () => {
    write()
    const summary = JSON.parse(readFileSync(join(resultsDir, 'summary.json'), 'utf8')) as Summary
    expect(summary.results.map((r) => r.name)).toEqual(['usage-vs-bare', 'leads-vs-plain-koa', 'lead-to-sms', 'webhooks-file', 'webhooks-memory', 'automations'])
    expect(summary.run).toEqual(RUN)
    const byName = Object.fromEntries(summary.results.map((r) => [r.name, r]))
    expect(byName['usage-vs-bare']).toMatchObject({ commit: 'abc1234567', node: 'v24.11.0', cpus: 2, from_this_run: true, headline: { ratio: 0.031 } })
    expect(byName['webhooks-file']!.from_this_run).toBe(false)
    expect(byName['automations']).toMatchObject({ headline: null, cpus: null, from_this_run: false })
  })

  it('replaces only the README block between the markers, with a row per result and the chart', () => {
    write()
    const readme = readFileSync(readmePath, 'utf8')
    expect(readme.startsWith('# Benchmarks\n\nIntro kept.\n\n')).toBe(true)
    expect(readme.endsWith(`${END_MARKER}\n\n## After\n\nKept too.\n`)).toBe(true)
    expect(readme).not.toContain('old table')
    const block = readme.slice(readme.indexOf(START_MARKER), readme.indexOf(END_MARKER))
    const rows = block.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Bench'))
    expect(rows).toHaveLength(6)
    expect(block).toContain('Last run 2026-11-26 17:00 UTC: 4 bench runs in 12 min 34 s; failed: webhooks.ts (TEMPORAL_DEV_STORE=file).')
    // A pipe in a label would split the cell: it is escaped.
    expect(rows[0]).toBe('| usage-vs-bare | **0.031** (higher is better) | GET /usage ÷ bare Koa \\| same bytes | - | usage req/s 1,369 · bare req/s 45,052 | 2026-11-26, abc1234567, v24.11.0, 2 cpus |')
    expect(rows.find((r) => r.startsWith('| leads-vs-plain-koa'))).toContain('>= 0.8: **not met**')
    expect(rows.find((r) => r.startsWith('| lead-to-sms'))).toContain('| no baseline |')
    expect(rows.find((r) => r.startsWith('| webhooks-file'))).toContain('earlier run')
    expect(rows.find((r) => r.startsWith('| automations'))).toContain('no headline')
    expect(block).toContain('![Headline ratio of each bench against its same-run baseline](results/chart.svg)')
    // Written again, the block is replaced, not added to.
    write()
    expect(readFileSync(readmePath, 'utf8')).toBe(readme)
  })

  it('draws a bar per ratio, coloured by its goal, a goal tick, and escapes the labels', () => {
    write()
    const svg = readFileSync(join(resultsDir, 'chart.svg'), 'utf8')
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true)
    // Bars: usage (no goal, blue), leads (not met, red), webhooks-file (blue), webhooks-memory (met, green).
    const bars = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" fill="(#[0-9a-f]{6})"/g)].map((m) => m[1])
    expect(bars).toEqual(['#1565c0', '#c62828', '#1565c0', '#2e7d32'])
    // The 0.8 goal is a tick; '>= 100 deliveries/s' is not a ratio and is not drawn.
    expect(svg.match(/stroke-width="2.5"/g)).toHaveLength(1)
    // Labels are escaped: every < begins an element.
    expect(svg).not.toMatch(/<(?![a-z/])/)
    expect(svg).toContain('p99 ms &lt;&amp;&gt; 225</text>')
    expect(svg).toContain('goal: every SMS within 30 s, met')
    expect(svg).not.toContain('automations')
  })

  it('adds the block at the end of a README without markers, and refuses one with a single marker', () => {
    expect(replaceBetweenMarkers('# B\n', 'table')).toBe(`# B\n\n## Latest figures (\`npm run bench\`)\n\n${START_MARKER}\ntable\n${END_MARKER}\n`)
    expect(() => replaceBetweenMarkers(`# B\n${START_MARKER}\n`, 'table')).toThrow(/one bench marker/)
  })

  it('reads a goal as a ratio bound only when it is one', () => {
    expect(goalRatio('>= 0.8')).toBe(0.8)
    expect(goalRatio('<= 2')).toBe(2)
    expect(goalRatio('>= 100 deliveries/s')).toBeNull()
    expect(goalRatio(undefined)).toBeNull()
  })

  it('without a run (npm run bench -- --summary) marks nothing as earlier', () => {
    write(null)
    const readme = readFileSync(readmePath, 'utf8')
    expect(readme).not.toContain('earlier run')
    expect(readme).not.toContain('Last run')
  })
})
