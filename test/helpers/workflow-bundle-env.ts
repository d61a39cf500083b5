// vitest setup file: every worker a test file starts, in its process (replay workers included) or as
// a child process (crash tests), runs the workflow bundle global setup built once for the run
// instead of bundling workflows/ again (webpack takes seconds per process). The variable is
// WORKFLOW_BUNDLE_ENV of src/temporal/workflow-bundle.ts, written out so that files which never
// start a worker do not load the Temporal worker package for it.
import { inject } from 'vitest'

process.env.TEMPORAL_WORKFLOW_BUNDLE = inject('workflowBundlePath')
