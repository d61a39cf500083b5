// The workflow code the worker runs, bundled by webpack. Each workflow lives in its domain's folder,
// src/domains/<domain>/workflows/<name>.ts, and exports its function under <name> in camelCase; the
// bundle's entry is generated from those files, so adding a workflow touches its own folder only
// (the domain's defineWorkflow makes it startable; checkWorkflowModules in worker.ts checks both
// agree). Bundling takes seconds, so a process does it once, and a prebuilt bundle can be used instead:
// `npm run build` writes one beside the compiled code, which the compiled service loads.
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const domainsDir = fileURLToPath(new URL('../domains/', import.meta.url))
// Run from the sources (tsx, vitest) this module is .ts and the workflow modules are .ts files;
// compiled (npm run build, dist/) it is .js and so are they.
const compiled = import.meta.url.endsWith('.js')
const moduleExtension = compiled ? '.js' : '.ts'
// The node_modules the SDK is installed in, wherever this module runs from (src/ or dist/).
const sdkEntry = createRequire(import.meta.url).resolve('@temporalio/workflow')
const nodeModulesDir = sdkEntry.slice(0, sdkEntry.lastIndexOf('/node_modules/') + '/node_modules/'.length)
/** Where `npm run build` (scripts/build.mjs) writes the bundle: dist/workflow-bundle.js. */
export const BUILT_BUNDLE_PATH = fileURLToPath(new URL('../../workflow-bundle.js', import.meta.url))
/** Workflow interceptors bundled with every workflow: tracing (a run started inside a trace continues it). */
const interceptorModules = [fileURLToPath(new URL(`../../workflows/tracing-interceptors${moduleExtension}`, import.meta.url))]

/** One workflow module: the workflow type (its exported function's name) and its file. */
export interface WorkflowModule {
  type: string
  path: string
}

const camelCase = (fileName: string) => fileName.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())

/** Every src/domains/**\/workflows/<name>.ts (.js compiled), read from the folders (sorted, so the bundle is stable). */
export function workflowModules(): WorkflowModule[] {
  const found: WorkflowModule[] = []
  for (const entry of readdirSync(domainsDir, { recursive: true, encoding: 'utf8' })) {
    const parts = entry.split(/[\\/]/)
    const file = parts.at(-1)!
    if (parts.at(-2) !== 'workflows' || !/^[a-z0-9-]+\.[jt]s$/.test(file) || !file.endsWith(moduleExtension) || file.endsWith('.test.ts')) continue
    found.push({ type: camelCase(file.slice(0, -3)), path: join(domainsDir, entry) })
  }
  return found.sort((a, b) => a.type.localeCompare(b.type))
}

/** A bundle built ahead of time (by bundleWorkflows, written to a file): its path. */
export interface PrebuiltWorkflowBundle {
  codePath: string
}

/**
 * Names a prebuilt bundle for every worker of a process and its children; the test run builds one
 * for all its files and crash-test worker processes. Unset: the compiled service loads the bundle
 * `npm run build` wrote (BUILT_BUNDLE_PATH); run from the sources, the worker bundles at start.
 */
export const WORKFLOW_BUNDLE_ENV = 'TEMPORAL_WORKFLOW_BUNDLE'

/**
 * Bundles every workflow module (ESM sources import './x.js', resolved to the .ts files).
 * `modules` replaces the list, e.g. with a changed copy of one workflow (the replay test's
 * non-deterministic edit).
 */
export async function bundleWorkflows(modules: WorkflowModule[] = workflowModules()): Promise<WorkflowBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'tradie-ops-workflows-'))
  try {
    const entry = join(dir, 'index.ts')
    writeFileSync(entry, modules.map((m) => `export { ${m.type} } from ${JSON.stringify(m.path)}\n`).join(''))
    return await bundleWorkflowCode({
      workflowsPath: entry,
      workflowInterceptorModules: interceptorModules,
      webpackConfigHook: (config) => {
        // The project's node_modules too: a module copied outside the project (the replay test's) still finds the SDK.
        const modules = [...(config.resolve?.modules ?? ['node_modules']), nodeModulesDir]
        config.resolve = { ...config.resolve, modules, extensionAlias: { '.js': ['.ts', '.js'] } }
        return config
      },
      logger: { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: console.warn, error: console.error },
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

let bundle: Promise<WorkflowBundle> | null = null

/** Which prebuilt bundle this process loads: TEMPORAL_WORKFLOW_BUNDLE, else the built one when compiled; null: it bundles. */
export function prebuiltBundlePath(): string | null {
  const named = process.env[WORKFLOW_BUNDLE_ENV]
  if (named) return named
  return compiled && existsSync(BUILT_BUNDLE_PATH) ? BUILT_BUNDLE_PATH : null
}

/** This process's bundle, made once: read from the prebuilt file when there is one, else bundled. */
export function workflowBundle(): Promise<WorkflowBundle> {
  const prebuilt = prebuiltBundlePath()
  bundle ??= prebuilt ? readFile(prebuilt, 'utf8').then((code) => ({ code })) : bundleWorkflows()
  return bundle
}
