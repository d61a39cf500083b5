// `npm run -s workflows`: every workflow the service runs, from the composition (see temporal/workflow-table.ts).
import { composition } from './domains/index.js'
import { workflowModules } from './temporal/workflow-bundle.js'
import { workflowTable } from './temporal/workflow-table.js'

console.log(workflowTable(composition.workflows, workflowModules()))
