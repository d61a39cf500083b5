// Where the service's CPU goes on GET /api/v1/leads?limit=50: a V8 CPU profile of this process
// under autocannon load, summed by function and by package. A tool for finding overhead, not a
// benchmark. Run: npx tsx bench/profile-leads.ts [plain]
import { Session } from 'node:inspector/promises'
import { autocannon, startBenchService } from './harness.js'
import { startPlainLeads } from './plain-leads.js'

const service = await startBenchService('Profile Roofing')
const auth = { authorization: `Bearer ${service.key}` }
for (let i = 0; i < 200; i++) {
  await fetch(`${service.base}/api/v1/leads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Lead ${i}`, suburb: 'Penrith' }) })
}
const plain = process.argv[2] === 'plain' ? await startPlainLeads(service.runtime.deps.config.DATABASE_URL, service.runtime.deps.config.DB_POOL_MAX) : null
const url = plain?.url ?? `${service.base}/api/v1/leads?limit=50`
await autocannon(url, { connections: 20, seconds: 3, headers: auth })
const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.setSamplingInterval', { interval: 100 })
await session.post('Profiler.start')
const load = await autocannon(url, { connections: 20, seconds: Number(process.env.SECONDS ?? 8), headers: auth })
const { profile } = await session.post('Profiler.stop')
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number; children?: number[] }
const nodes = profile.nodes as Node[]
const total = nodes.reduce((s, n) => s + n.hitCount, 0)
const byFn = new Map<string, number>()
const byPkg = new Map<string, number>()
for (const n of nodes) {
  const u = n.callFrame.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '')
  const key = `${n.callFrame.functionName || '(anon)'} ${u}:${n.callFrame.lineNumber + 1}`
  byFn.set(key, (byFn.get(key) ?? 0) + n.hitCount)
  const pkg = u.startsWith('node_modules/') ? u.split('/').slice(1, u.split('/')[1]!.startsWith('@') ? 3 : 2).join('/') : u.startsWith('src/') ? u.split('/').slice(0, 3).join('/') : u === '' ? n.callFrame.functionName : u.split('/')[0]!
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + n.hitCount)
}
// Samples are taken every 100 µs: hits x 100 / requests is the CPU microseconds per request.
const perRequest = (hits: number) => ((hits * 100) / Math.max(load.total, 1)).toFixed(1).padStart(6)
const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, hits]) => `${perRequest(hits)} µs  ${name}`).join('\n')
console.log(`requests/s ${load.requestsPerSecond}, samples ${total}, µs per request ${perRequest(total)}`)
console.log('--- by package/file\n' + top(byPkg, 40))
console.log('--- by function\n' + top(byFn, 60))
await plain?.stop()
await service.stop()
