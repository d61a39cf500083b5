// The workflow code the worker runs, bundled by webpack. Each workflow lives in its domain's folder,
// src/domains/<domain>/workflows/<name>.ts, and exports its function under <name> in camelCase; the
// bundle's entry is generated from those files, so adding a workflow touches its own folder only
// (the domain's defineWorkflow makes it startable; checkWorkflowModules in worker.ts checks both
// agree). Bundling takes seconds, so a process does it once, and a prebuilt bundle can be used instead.
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const domainsDir = fileURLToPath(new URL('../domains/', import.meta.url))
const nodeModulesDir = fileURLToPath(new URL('../../node_modules/', import.meta.url))
/** Workflow interceptors bundled with every workflow: tracing (a run started inside a trace continues it). */
const interceptorModules = [fileURLToPath(new URL('../../workflows/tracing-interceptors.ts', import.meta.url))]

/** One workflow module: the workflow type (its exported function's name) and its file. */
export interface WorkflowModule {
  type: string
  path: string
}

const camelCase = (fileName: string) => fileName.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())

/** Every src/domains/**\/workflows/<name>.ts, read from the folders (sorted, so the bundle is stable). */
export function workflowModules(): WorkflowModule[] {
  const found: WorkflowModule[] = []
  for (const entry of readdirSync(domainsDir, { recursive: true, encoding: 'utf8' })) {
    const parts = entry.split(/[\\/]/)
    const file = parts.at(-1)!
    if (parts.at(-2) !== 'workflows' || !/^[a-z0-9-]+\.ts$/.test(file) || file.endsWith('.test.ts')) continue
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
 * for all its files and crash-test worker processes. Unset (production): the worker bundles at start.
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

/** This process's bundle, made once: read from TEMPORAL_WORKFLOW_BUNDLE when set, else bundled. */
export function workflowBundle(): Promise<WorkflowBundle> {
  const prebuilt = process.env[WORKFLOW_BUNDLE_ENV]
  bundle ??= prebuilt ? readFile(prebuilt, 'utf8').then((code) => ({ code })) : bundleWorkflows()
  return bundle
}
