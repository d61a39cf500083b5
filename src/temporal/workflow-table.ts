// The table of workflows for operators and docs, generated from the composition rather than kept by
// hand: `npm run -s workflows` prints it. The id column is each definition's own id builder run on
// <placeholders>, so it always shows the id the code builds.
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { workflowType, type AnyWorkflowDefinition } from './contract.js'
import type { WorkflowModule } from './workflow-bundle.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

export function workflowTable(definitions: AnyWorkflowDefinition[], modules: WorkflowModule[]): string {
  const placeholders = new Proxy({}, { get: (_target, key) => `<${String(key)}>` })
  const rows = definitions.map((d) => {
    const module = modules.find((m) => m.type === workflowType(d))
    const file = module ? relative(root, module.path) : '(no module)'
    return `| ${workflowType(d)} | \`${d.id(placeholders as never)}\` | ${d.idConflictPolicy} / ${d.idReusePolicy} | ${file} | ${d.description} |`
  })
  return ['| Workflow type | Id | Conflict / reuse | File | What it does |', '|---|---|---|---|---|', ...rows].join('\n')
}
