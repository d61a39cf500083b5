// Calling tools through the official MCP SDK client and unwrapping results. Every successful
// result is also checked against the tool's declared output schema, so the catalogue never lies:
// the operation's own schema, and the compacted one tools/list publishes, checked with ajv set up
// as the SDK client sets it up (what a validating client does with the listing).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Ajv, type ValidateFunction } from 'ajv'
import formats from 'ajv-formats'
import { createRegistry } from '../../src/domains/index.js'
import { describeTool, findTool } from '../../src/transports/mcp/catalogue.js'
import type { AnyOperation } from '../../src/core/operation.js'
import { describeErrors, validatorFor } from '../../src/core/validation.js'

const registry = createRegistry()
// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (ajv: Ajv) => void
const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true })
addFormats(ajv)
const listedValidators = new Map<AnyOperation, ValidateFunction>()

/** The validator of the output schema tools/list publishes for op. */
export function listedOutputValidator(op: AnyOperation): ValidateFunction {
  const known = listedValidators.get(op)
  if (known) return known
  const v = ajv.compile(describeTool(op, { underscoreNames: false }).outputSchema!)
  listedValidators.set(op, v)
  return v
}

export async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const res = await client.callTool({ name, arguments: args })
  if (res.isError) throw Object.assign(new Error(`${name} failed: ${JSON.stringify(res.structuredContent)}`), { body: res.structuredContent })
  const op = findTool(registry, name)!
  if (!validatorFor(op.output).Check(res.structuredContent)) {
    throw new Error(`${name} returned what its output schema does not allow: ${describeErrors(op.output, res.structuredContent).join('; ')}`)
  }
  const listed = listedOutputValidator(op)
  if (!listed(res.structuredContent)) throw new Error(`${name} returned what its listed output schema does not allow: ${ajv.errorsText(listed.errors)}`)
  return res.structuredContent
}

/** The error body of a tool call that must fail. */
export async function toolError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const res = await client.callTool({ name, arguments: args })
  if (!res.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(res.structuredContent)}`)
  return res.structuredContent
}
