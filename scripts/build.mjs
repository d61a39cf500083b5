// `npm run build`: the service as `node` runs it in production, in dist/.
// 1. tsc -p tsconfig.build.json: src/, workflows/, activities/ compiled (type-checked, incremental,
//    so the rebuild every `npm start` does compiles only what changed).
// 2. The files the code reads beside itself at run time (migrations, facts data, the price
//    catalogue) copied next to the compiled modules: tsc copies only what is imported.
// 3. The workflow bundle built once (bundleWorkflows, the function the tests use) into
//    dist/workflow-bundle.js, which the compiled worker loads instead of running webpack at start.
//    Skipped when no compiled file is newer than the bundle (an unchanged rebuild).
// Options (the test of the built entry points uses them): --out <dir> (default dist) and --no-check
// (emit without type checking; `npm run typecheck` checks types).
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const args = process.argv.slice(2)
const outIndex = args.indexOf('--out')
const out = resolve(outIndex >= 0 ? args[outIndex + 1] : 'dist')
const noCheck = args.includes('--no-check')

const tsc = resolve('node_modules/typescript/bin/tsc')
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out, '--tsBuildInfoFile', join(out, '.tsbuildinfo'), ...(noCheck ? ['--noCheck'] : [])], { stdio: 'inherit' })

// Test fixtures (recorded histories, tool snapshots) stay behind: only the tests read them.
const isRuntimeFile = (path) => !path.endsWith('.ts') && !path.endsWith('.snapshot.json') && !path.includes('/histories/') && !path.endsWith('.md')
for (const entry of readdirSync('src', { recursive: true, encoding: 'utf8' })) {
  const from = join('src', entry)
  if (!statSync(from).isFile() || !isRuntimeFile(`/${entry}`)) continue
  const to = join(out, from)
  mkdirSync(dirname(to), { recursive: true })
  copyFileSync(from, to)
}

const bundlePath = join(out, 'workflow-bundle.js')
const newest = (dir) => {
  let latest = 0
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (entry.endsWith('.js')) latest = Math.max(latest, statSync(join(dir, entry)).mtimeMs)
  }
  return latest
}
const sourcesChanged = () => Math.max(newest(join(out, 'src')), newest(join(out, 'workflows')), statSync('package-lock.json').mtimeMs) > statSync(bundlePath).mtimeMs
if (!existsSync(bundlePath) || sourcesChanged()) {
  const started = Date.now()
  const { bundleWorkflows } = await import(pathToFileURL(join(out, 'src/temporal/workflow-bundle.js')).href)
  writeFileSync(bundlePath, (await bundleWorkflows()).code)
  console.error(`workflow bundle: ${relative(process.cwd(), bundlePath)} (${Date.now() - started} ms)`)
}
