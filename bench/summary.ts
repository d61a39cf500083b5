// The load suite's summary: reads every bench's result (bench/results/<name>.json, written by
// reportResult) and writes bench/results/summary.json, a markdown table between markers in
// bench/README.md and a bar chart of the headline ratios (bench/results/chart.svg). Plain string
// building and no browser: the summary is rewritten at the end of every run, on any machine, and
// test/bench-summary.test.ts runs it on fixtures.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import type { Headline } from './harness.js'

export const START_MARKER = '<!-- bench:table:start -->'
export const END_MARKER = '<!-- bench:table:end -->'
const NOT_RESULTS = new Set(['summary.json'])

/** A result file as reportResult writes it; older files may lack the headline and the run fields. */
export interface BenchResult {
  name: string
  date?: string
  commit?: string | null
  node?: string
  /** An object since reportResult; older files hold 'linux x64, node v20…'. */
  machine?: { platform?: string; cpus?: number; cpu_model?: string | null; load_average?: number[] } | string
  script?: string
  quick?: boolean
  run_id?: string | null
  headline?: Headline
}

/** What bench/run-all.ts ran: each bench's script, extra environment, exit code and duration. */
export interface RunRecord {
  id: string
  quick: boolean
  started_at: string
  seconds: number
  benches: { script: string; env: Record<string, string>; exit_code: number | null; seconds: number }[]
}

export interface SummaryRow {
  name: string
  script: string | null
  date: string | null
  commit: string | null
  node: string | null
  cpus: number | null
  quick: boolean
  /** False for a result left from an earlier run (a bench not selected, or one that failed this time). */
  from_this_run: boolean
  headline: Headline | null
}

export interface Summary {
  generated_at: string
  run: RunRecord | null
  results: SummaryRow[]
}

/** Every result file in dir, by its file name. */
export function readResults(dir: string): BenchResult[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !NOT_RESULTS.has(f))
    .sort()
    .map((f) => ({ ...(JSON.parse(readFileSync(join(dir, f), 'utf8')) as object), name: basename(f, '.json') }))
}

/** Rows in the runner's order of scripts (a script's several results by name), then any others by name. */
export function buildSummary(results: BenchResult[], run: RunRecord | null, scriptOrder: string[], now = new Date()): Summary {
  const rank = (r: BenchResult) => {
    const i = scriptOrder.indexOf(r.script ?? '')
    return i === -1 ? scriptOrder.length : i
  }
  const rows = [...results]
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name))
    .map((r): SummaryRow => ({
      name: r.name,
      script: r.script ?? null,
      date: r.date ?? null,
      commit: r.commit ?? null,
      node: r.node ?? null,
      cpus: typeof r.machine === 'object' ? (r.machine.cpus ?? null) : null,
      quick: r.quick === true,
      from_this_run: run !== null && r.run_id === run.id,
      headline: r.headline ?? null,
    }))
  return { generated_at: now.toISOString(), run, results: rows }
}

const number = (v: number | null) => (v === null ? '-' : v.toLocaleString('en-US', { maximumFractionDigits: 3 }))
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const duration = (s: number) => (s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${Math.round(s)} s`)
const goalText = (h: Headline) => (h.goal ? `${h.goal}${h.met === undefined ? '' : h.met ? ': met' : ': **not met**'}` : '-')

/** The markdown between the README's markers: what the last run was, the table, the chart. */
export function markdownTable(summary: Summary, chartPath: string): string {
  const lines: string[] = []
  const run = summary.run
  if (run) {
    const failed = run.benches.filter((b) => b.exit_code !== 0).map((b) => `${b.script}${Object.keys(b.env).length ? ` (${Object.entries(b.env).map(([k, v]) => `${k}=${v}`).join(' ')})` : ''}`)
    lines.push(
      `Last run ${run.started_at.slice(0, 16).replace('T', ' ')} UTC${run.quick ? ' (**quick**: short runs, for checking the suite, not its figures)' : ''}: ` +
        `${run.benches.length} bench runs in ${duration(run.seconds)}; ${failed.length ? `failed: ${failed.join(', ')}` : 'none failed'}.`,
    )
  }
  lines.push(
    'The ratio is each bench against its own baseline measured in the same process, side by side (a bare handler, the activity alone, the meter off): ' +
      'read it before the absolute figures, which move with whatever else the machine is running. Rows not from the last run keep their own date.',
    '',
    '| Bench | Ratio | Ratio of | Goal | Absolute figures | Taken |',
    '|---|---|---|---|---|---|',
  )
  for (const r of summary.results) {
    const h = r.headline
    const taken = [r.date?.slice(0, 10), r.commit, r.node, r.cpus === null ? null : `${r.cpus} cpus`, r.quick ? 'quick' : null, run && !r.from_this_run ? 'earlier run' : null]
      .filter(Boolean).join(', ')
    if (!h) {
      lines.push(`| ${cell(r.name)} | - | no headline (written before reportResult) | - | - | ${cell(taken)} |`)
      continue
    }
    const ratio = h.ratio === null ? 'no baseline' : `**${number(h.ratio)}** (${h.better} is better)`
    const figures = Object.entries(h.figures).map(([k, v]) => `${k} ${number(v)}`).join(' · ')
    lines.push(`| ${cell(r.name)} | ${ratio} | ${cell(h.ratio_of)} | ${cell(goalText(h))} | ${cell(figures)} | ${cell(taken)} |`)
  }
  lines.push('', `![Headline ratio of each bench against its same-run baseline](${chartPath})`)
  return lines.join('\n')
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** A goal written as a bound on the ratio ('>= 0.8', '<= 2') is drawn as a marker on its bar. */
export function goalRatio(goal: string | undefined): number | null {
  const m = goal?.match(/^\s*(?:>=|<=|<|>)\s*(\d+(?:\.\d+)?)\s*$/)
  return m ? Number(m[1]) : null
}

/**
 * A horizontal bar per bench with a ratio, on one linear scale with the baseline (1) marked, its goal
 * as a tick, green when met and red when not; benches without a baseline get a line of their figures.
 */
export function chartSvg(summary: Summary): string {
  const rows = summary.results.filter((r) => r.headline)
  const width = 960
  const labelW = 300
  const barX = labelW + 10
  const barW = width - barX - 90
  const rowH = 38
  const top = 56
  const height = top + rows.length * rowH + 44
  const ratios = rows.flatMap((r) => [r.headline!.ratio, goalRatio(r.headline!.goal)]).filter((v): v is number => v !== null)
  const max = Math.max(1, ...ratios) * 1.08
  const step = max <= 1.6 ? 0.25 : max <= 4 ? 0.5 : Math.ceil(max / 8)
  const x = (v: number) => barX + (Math.min(v, max) / max) * barW
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="24" font-size="16" font-weight="bold">Each bench against its baseline measured in the same process (ratio; 1 = the baseline)</text>`,
    `<text x="12" y="44" fill="#555">${xml(summary.run ? `Run of ${summary.run.started_at.slice(0, 16).replace('T', ' ')} UTC${summary.run.quick ? ', quick' : ''}` : `Written ${summary.generated_at.slice(0, 16).replace('T', ' ')} UTC`)}; green: goal met, red: not met, blue: no goal; tick: the goal</text>`,
  ]
  for (let v = 0; v <= max + 1e-9; v += step) {
    const gx = x(v).toFixed(1)
    out.push(`<line x1="${gx}" y1="${top - 4}" x2="${gx}" y2="${top + rows.length * rowH}" stroke="#e3e3e3"/>`)
    out.push(`<text x="${gx}" y="${top + rows.length * rowH + 16}" text-anchor="middle" fill="#555">${number(Math.round(v * 100) / 100)}</text>`)
  }
  const one = x(1).toFixed(1)
  out.push(`<line x1="${one}" y1="${top - 4}" x2="${one}" y2="${top + rows.length * rowH}" stroke="#333" stroke-dasharray="4 3"/>`)
  out.push(`<text x="${one}" y="${top + rows.length * rowH + 32}" text-anchor="middle" fill="#333">baseline</text>`)
  rows.forEach((r, i) => {
    const h = r.headline!
    const y = top + i * rowH
    out.push(`<text x="12" y="${y + 16}" font-weight="bold">${xml(clip(r.name, 36))}</text>`)
    out.push(`<text x="12" y="${y + 31}" fill="#555" font-size="11">${xml(h.ratio === null ? 'no baseline' : `${h.better} is better`)}${r.quick ? ', quick' : ''}</text>`)
    if (h.ratio === null) {
      // Its figures on one line and its goal on the next, where the bar would be, over the grid.
      out.push(`<rect x="${barX - 2}" y="${y + 2}" width="${width - barX}" height="${rowH - 4}" fill="white"/>`)
      const figures = Object.entries(h.figures).map(([k, v]) => `${k} ${number(v)}`).join(' · ')
      out.push(`<text x="${barX}" y="${y + 16}" fill="#333">${xml(clip(figures, 88))}</text>`)
      if (h.goal) out.push(`<text x="${barX}" y="${y + 31}" fill="#555" font-size="11">${xml(clip(`goal: ${h.goal}${h.met === undefined ? '' : h.met ? ', met' : ', not met'}`, 100))}</text>`)
      return
    }
    const colour = h.met === undefined ? '#1565c0' : h.met ? '#2e7d32' : '#c62828'
    const end = x(h.ratio)
    out.push(`<rect x="${barX}" y="${y + 7}" width="${Math.max(end - barX, 1).toFixed(1)}" height="${rowH - 16}" fill="${colour}" rx="2"/>`)
    const goal = goalRatio(h.goal)
    if (goal !== null) {
      const gx = x(goal).toFixed(1)
      out.push(`<line x1="${gx}" y1="${y + 3}" x2="${gx}" y2="${y + rowH - 5}" stroke="#000" stroke-width="2.5"/>`)
    }
    // The value after the bar, or after the goal's tick when the bar stops short of it.
    const labelX = Math.max(end, goal === null ? end : x(goal)) + 6
    out.push(`<text x="${labelX.toFixed(1)}" y="${y + 24}" font-weight="bold">${number(h.ratio)}${h.ratio > max ? ' ›' : ''}</text>`)
  })
  out.push('</svg>')
  return out.join('\n') + '\n'
}

/** The README with the block between the markers replaced (or, without markers, added at the end). */
export function replaceBetweenMarkers(readme: string, block: string): string {
  const start = readme.indexOf(START_MARKER)
  const end = readme.indexOf(END_MARKER)
  if (start === -1 && end === -1) return `${readme.trimEnd()}\n\n## Latest figures (\`npm run bench\`)\n\n${START_MARKER}\n${block}\n${END_MARKER}\n`
  if (start === -1 || end === -1 || end < start) throw new Error(`README has one bench marker without the other (${START_MARKER} ... ${END_MARKER})`)
  return `${readme.slice(0, start + START_MARKER.length)}\n${block}\n${readme.slice(end)}`
}

/** Reads the results, writes summary.json, the chart and the README's table; returns the summary. */
export function writeSummary(options: { resultsDir: string; readmePath: string; run: RunRecord | null; scriptOrder: string[]; now?: Date }): Summary {
  const summary = buildSummary(readResults(options.resultsDir), options.run, options.scriptOrder, options.now)
  const chartFile = join(options.resultsDir, 'chart.svg')
  writeFileSync(join(options.resultsDir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n')
  writeFileSync(chartFile, chartSvg(summary))
  const chartPath = relative(dirname(options.readmePath), chartFile).split('\\').join('/')
  writeFileSync(options.readmePath, replaceBetweenMarkers(readFileSync(options.readmePath, 'utf8'), markdownTable(summary, chartPath)))
  return summary
}
