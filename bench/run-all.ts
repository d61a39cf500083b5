// `npm run bench`: every benchmark in one command. Each runs in a process of its own, one after
// another (they would skew each other's figures side by side, and each starts and stops its own
// service, database and Temporal dev server), its output shown as it comes; each ends by writing
// bench/results/<name>.json (reportResult). Then the summary: bench/results/summary.json, the
// table and chart in bench/README.md (bench/summary.ts). A failed bench does not stop the rest; the
// run exits 1 and the summary names it, keeping that bench's earlier result marked as earlier.
// `npm run bench -- leads lists` runs the benches whose script contains a word given;
// `npm run bench -- --summary` only rewrites the summary from the results present;
// `npm run bench:quick` is the same with BENCH_QUICK=1 (short knobs, bench/harness.ts).
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeSummary, type RunRecord } from './summary.js'

interface Bench {
  /** A file in bench/ that ends with reportResult. */
  script: string
  /** Extra environment for this run of it (one script may be listed twice with different settings). */
  env?: Record<string, string>
}

/** Every benchmark, in the order they run. Adding one is one line here. */
const BENCHES: Bench[] = [
  { script: 'usage-vs-bare.ts' },
  { script: 'mcp-vs-rest-leads.ts' },
  { script: 'leads-vs-plain-koa.ts' },
  { script: 'readme-start-vs-plain.ts' },
  { script: 'lists-at-scale.ts' },
  { script: 'lead-to-sms.ts' },
  { script: 'webhooks.ts', env: { TEMPORAL_DEV_STORE: 'memory' } },
  { script: 'webhooks.ts', env: { TEMPORAL_DEV_STORE: 'file' } },
  { script: 'automations.ts' },
  { script: 'catalogue-size.ts' },
  { script: 'wallet-charging.ts' },
]

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const words = args.filter((a) => !a.startsWith('--'))
const selected = words.length ? BENCHES.filter((b) => words.some((w) => b.script.includes(w))) : BENCHES
const scriptOrder = [...new Set(BENCHES.map((b) => b.script))]
const summarise = (run: RunRecord | null) =>
  writeSummary({ resultsDir: join(root, 'bench/results'), readmePath: join(root, 'bench/README.md'), run, scriptOrder })

/** Runs one bench under the same Node as this runner (with tsx as its loader); resolves its exit code. */
function runBench(bench: Bench, runId: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('bench', bench.script)], {
      cwd: root, stdio: 'inherit', env: { ...process.env, ...bench.env, BENCH_RUN_ID: runId },
    })
    child.on('error', (err) => {
      console.error(`bench ${bench.script}: ${err.message}`)
      resolve(null)
    })
    child.on('exit', (code, signal) => resolve(signal ? null : code))
  })
}

if (args.includes('--summary')) {
  summarise(null)
  console.log('bench/results/summary.json, bench/results/chart.svg and the table in bench/README.md rewritten')
} else {
  if (selected.length === 0) throw new Error(`no bench matches ${words.join(', ')}; scripts: ${scriptOrder.join(', ')}`)
  const run: RunRecord = { id: randomUUID(), quick: process.env.BENCH_QUICK === '1', started_at: new Date().toISOString(), seconds: 0, benches: [] }
  const started = performance.now()
  for (const bench of selected) {
    const label = `${bench.script}${bench.env ? ` ${Object.entries(bench.env).map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}`
    console.log(`\n=== bench ${selected.indexOf(bench) + 1}/${selected.length}: ${label}${run.quick ? ' (quick)' : ''}`)
    const benchStarted = performance.now()
    const exitCode = await runBench(bench, run.id)
    const seconds = Math.round((performance.now() - benchStarted) / 100) / 10
    run.benches.push({ script: bench.script, env: bench.env ?? {}, exit_code: exitCode, seconds })
    console.log(`=== ${label}: ${exitCode === 0 ? 'done' : `FAILED (exit ${exitCode})`} in ${seconds} s`)
  }
  run.seconds = Math.round((performance.now() - started) / 1000)
  const summary = summarise(run)
  console.log(`\nLoad suite: ${run.benches.length} bench runs in ${run.seconds} s`)
  console.table(Object.fromEntries(summary.results.filter((r) => r.from_this_run).map((r) => [r.name, {
    ratio: r.headline?.ratio ?? '-', goal: r.headline?.goal ?? '-', met: r.headline?.met ?? '-',
  }])))
  console.log('Written: bench/results/<bench>.json, bench/results/summary.json, bench/results/chart.svg, the table in bench/README.md')
  if (run.benches.some((b) => b.exit_code !== 0)) process.exitCode = 1
}
