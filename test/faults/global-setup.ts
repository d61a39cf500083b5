// Global setup of the fault suite: the run's template database and workflow bundle, as the main
// suite makes them (test/helpers/global-setup.ts), but no shared Temporal dev server or stripe-mock:
// each fault file starts, kills and restarts its own dev server, and pays with the sandbox.
import type { TestProject } from 'vitest/node'
import { buildWorkflowBundle } from '../helpers/global-setup.js'
import { createTemplateDatabase, newRunId, startDatabaseReaper } from '../helpers/databases.js'

export default async function setup(project: TestProject) {
  const run = newRunId()
  const [template, bundle] = await Promise.allSettled([createTemplateDatabase(run), buildWorkflowBundle()])
  const reaper = template.status === 'fulfilled' ? startDatabaseReaper(run) : null
  const teardown = async () => {
    await reaper?.stop()
    if (template.status === 'fulfilled') await template.value.drop()
    if (bundle.status === 'fulfilled') await bundle.value.remove()
  }
  if (template.status === 'rejected' || bundle.status === 'rejected') {
    await teardown()
    throw template.status === 'rejected' ? template.reason : (bundle as PromiseRejectedResult).reason
  }
  project.provide('databaseRun', run)
  project.provide('workflowBundlePath', bundle.value.path)
  return teardown
}
