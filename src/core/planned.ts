// Tools from the spec whose domains are built in later issues. Each is listed by tools/list with its
// real description and input schema, and validates its input; calling it answers not_implemented,
// naming the capability, until the domain lands (then its definition moves into the domain folder).
import type { TSchema } from 'typebox'
import Type from 'typebox'
import { AppError } from './errors.js'
import { defineOperation, type Access, type AnyOperation, type CostClass, type McpAnnotations } from './operation.js'

export { READ, SEND, WRITE } from './annotations.js'

export interface PlannedTool {
  name: string
  title: string
  description: string
  input: TSchema
  access: Access
  cost: CostClass
  annotations: McpAnnotations
  /** The capability (issue) that will implement it, e.g. "Quotes, jobs and clients". */
  capability: string
}

const PlannedOutput = Type.Object({}, { additionalProperties: true })

export function plannedTool(tool: PlannedTool): AnyOperation {
  return defineOperation({
    ...tool,
    domain: tool.name.split('.')[0]!,
    output: PlannedOutput,
    planned: { capability: tool.capability },
    async run() {
      throw new AppError(
        'not_implemented',
        `${tool.name} is part of the "${tool.capability}" capability, which is not available in this deployment yet. Nothing was changed.`,
        { capability: tool.capability },
      )
    },
  })
}
