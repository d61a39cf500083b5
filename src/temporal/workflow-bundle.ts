// The workflow code the worker runs: workflows/index.ts and its imports, bundled by webpack. Bundling
// takes seconds, so a process does it once, and a bundle built ahead of time can be used instead.
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url))

/** A bundle built ahead of time (by bundleWorkflows, written to a file): its path. */
export interface PrebuiltWorkflowBundle {
  codePath: string
}

/**
 * Names a prebuilt bundle for every worker of a process and its children; the test run builds one
 * for all its files and crash-test worker processes. Unset (production): the worker bundles at start.
 */
export const WORKFLOW_BUNDLE_ENV = 'TEMPORAL_WORKFLOW_BUNDLE'

/** Bundles workflows/ (ESM sources import './x.js', resolved to the .ts files). */
export function bundleWorkflows(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({
    workflowsPath,
    webpackConfigHook: (config) => {
      config.resolve = { ...config.resolve, extensionAlias: { '.js': ['.ts', '.js'] } }
      return config
    },
    logger: { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: console.warn, error: console.error },
  })
}

let bundle: Promise<WorkflowBundle> | null = null

/** This process's bundle, made once: read from TEMPORAL_WORKFLOW_BUNDLE when set, else bundled. */
export function workflowBundle(): Promise<WorkflowBundle> {
  const prebuilt = process.env[WORKFLOW_BUNDLE_ENV]
  bundle ??= prebuilt ? readFile(prebuilt, 'utf8').then((code) => ({ code })) : bundleWorkflows()
  return bundle
}
