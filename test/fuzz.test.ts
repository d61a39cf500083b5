// Every REST endpoint and every MCP tool, driven with inputs generated from its own input schema
// (fast-check) and with the hostile values that once produced 500s. Nothing is listed by hand: an
// operation added to the registry is fuzzed by this file the day it lands. Operations run five at a
// time (describe.concurrent) on the one company: calls that overlap must not 5xx either.
// Every field is also driven alone to the extremes of its type (extremeInputs).
// Asserted: never a 5xx (a planned tool's 501 not_implemented aside), and every error in the
// spec's shape: {error, message} with the status that code always has (REST), or a JSON-RPC
// error / tool error carrying the same body (MCP).
// Counted: the last test prints how many operations each transport drove and asserts that, with the
// operations NOT_DRIVEN lists for it (with the reason), it is the registry's whole count.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import fc from 'fast-check'
import { createRegistry } from '../src/domains/index.js'
import type { AnyOperation } from '../src/core/operation.js'
import { statusOfCode } from '../src/core/errors.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { arbitraryFor, fieldExtremes, fittingInput, HOSTILE_VALUES, withField } from './helpers/arbitrary.js'

const RUNS = Number(process.env.FUZZ_RUNS ?? 6)
// Each run draws a new seed; a failure prints its seed, and FUZZ_SEED=<that seed> replays it.
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED)
const registry = createRegistry()

let app: TestApp
let key: string

/**
 * The one list of what a transport cannot drive, and why: an operation with no REST route (an MCP
 * tool only) or one that is not a tool (onboard, REST only: it is how a key is first obtained). Both
 * come from the operation's own bindings, so nothing is left out by hand.
 */
const NOT_DRIVEN = {
  rest: new Map(registry.operations.filter((op) => !op.rest).map((op) => [op.name, 'no REST route (an MCP tool only)'])),
  mcp: new Map(registry.operations.filter((op) => op.mcp === false).map((op) => [op.name, 'not an MCP tool (REST only)'])),
}
/** REST inputs not sent because their URL passes Node's header limit (counted, printed at the end). */
let oversizeUrls = 0
/** Operations whose every call ran and passed, per transport. */
const driven = { rest: new Set<string>(), mcp: new Set<string>() }

beforeAll(async () => {
  app = await startTestApp()
  key = (await onboard(app, { plan: 'business' })).api_key
})
afterAll(async () => {
  await app?.stop()
})

type Input = Record<string, unknown>

/** Percent-encodes text, writing a lone surrogate as the (invalid) UTF-8 bytes a sloppy client would send. */
function encodeLoose(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff
    if (pair) {
      out += encodeURIComponent(text.slice(i, i + 2))
      i++
    } else if (code >= 0xd800 && code <= 0xdfff) out += '%ED%A0%80'
    else out += encodeURIComponent(text[i]!)
  }
  return out
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value))

function pathParams(op: AnyOperation): string[] {
  return [...op.rest!.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!)
}

async function restCall(op: AnyOperation, input: Input) {
  const { method } = op.rest!
  const params = pathParams(op)
  const path = op.rest!.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeLoose(asText(input[name] ?? 'x')))
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !params.includes(k)))
  const readsQuery = method === 'GET' || method === 'DELETE'
  const query = readsQuery ? Object.entries(rest).map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(asText(v))}`).join('&') : ''
  const url = `${app.url}/api/v1${path}${query ? `?${query}` : ''}`
  // Node refuses a request line over its 16 KB header limit with 431 before reading the rest, and
  // fetch reports the reset as a failure: test/input-hardening.test.ts checks that 431 on a socket.
  if (url.length > 12_000) {
    oversizeUrls++
    return null
  }
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(readsQuery ? {} : { 'content-type': 'application/json' }) },
    body: readsQuery ? undefined : JSON.stringify(rest),
    redirect: 'manual',
  })
  const text = await res.text()
  return { status: res.status, text }
}

function expectRestReply(op: AnyOperation, reply: { status: number; text: string } | null, input: Input) {
  if (!reply) return
  const context = `${op.rest!.method} ${op.rest!.path} with ${JSON.stringify(input).slice(0, 300)} -> ${reply.status} ${reply.text.slice(0, 300)}`
  const planned501 = reply.status === 501 && op.planned !== undefined
  expect(reply.status < 500 || planned501, context).toBe(true)
  if (reply.status < 400) return
  const body = JSON.parse(reply.text) as { error?: unknown; message?: unknown }
  expect(typeof body.error, context).toBe('string')
  expect(typeof body.message === 'string' && body.message.length > 0, context).toBe(true)
  // 431 (headers too large) is answered by the HTTP parser hook with validation_error's body.
  if (reply.status !== 431) expect(statusOfCode(body.error as string), context).toBe(reply.status)
}

async function mcpCall(op: AnyOperation, args: unknown) {
  const res = await fetch(`${app.url}/api/v1/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: op.name, arguments: args } }),
  })
  return { status: res.status, text: await res.text() }
}

function expectMcpReply(op: AnyOperation, reply: { status: number; text: string }, args: unknown) {
  const context = `${op.name} with ${JSON.stringify(args)?.slice(0, 300)} -> ${reply.status} ${reply.text.slice(0, 300)}`
  expect(reply.status < 500, context).toBe(true)
  const body = JSON.parse(reply.text) as { jsonrpc: string; result?: any; error?: any }
  expect(body.jsonrpc, context).toBe('2.0')
  if (body.error) {
    expect(typeof body.error.code, context).toBe('number')
    expect(body.error.code, context).not.toBe(-32603) // internal error
    expect(typeof body.error.message, context).toBe('string')
    return
  }
  if (!body.result?.isError) return
  const error = body.result.structuredContent as { error?: unknown; message?: unknown }
  expect(typeof error.error, context).toBe('string')
  expect(error.error, context).not.toBe('internal_error')
  if (error.error === 'not_implemented') expect(op.planned, context).toBeDefined()
  expect(typeof error.message === 'string' && error.message.length > 0, context).toBe(true)
}

/** One input per hostile value: every field of the schema set to it (plus one field-less object). */
function hostileInputs(op: AnyOperation): Input[] {
  const fields = Object.keys((op.input as { properties?: Record<string, unknown> }).properties ?? {})
  return HOSTILE_VALUES.map((value) => Object.fromEntries((fields.length ? fields : ['unexpected']).map((f) => [f, value])))
}

/**
 * For every field (nested ones too), one fitting input with that field alone at an extreme of its
 * type: dates past 2099 and before 2000, 2023-02-29, 5e-324, -0, +-1e308, ''. About a thousand
 * calls in all; the values a whole-input hostile set never gets past the other fields' validation.
 */
function extremeInputs(op: AnyOperation): Input[] {
  const schema = op.input as Record<string, unknown>
  const base = fittingInput(schema)
  return fieldExtremes(schema).map(({ path, value }) => withField(base, path, value))
}

/** Runs the calls eight at a time: they wait on the database, not the CPU, so the file stays short. */
async function inBatches(inputs: Input[], call: (input: Input) => Promise<void>): Promise<void> {
  for (let i = 0; i < inputs.length; i += 8) await Promise.all(inputs.slice(i, i + 8).map(call))
}

const inputArbitrary = (op: AnyOperation) => arbitraryFor(op.input as Record<string, unknown>, 2).filter(
  (v): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v),
)

describe.concurrent('REST: generated and hostile inputs never get a 5xx', () => {
  test.for(registry.restOperations().map((op) => [`${op.rest!.method} ${op.rest!.path}`, op] as const))('%s', async ([, op]) => {
    for (const input of hostileInputs(op)) expectRestReply(op, await restCall(op, input), input)
    await inBatches(extremeInputs(op), async (input) => expectRestReply(op, await restCall(op, input), input))
    await fc.assert(fc.asyncProperty(inputArbitrary(op), async (input) => {
      expectRestReply(op, await restCall(op, input), input)
    }), { numRuns: RUNS, seed: SEED })
    driven.rest.add(op.name)
  })
})

describe.concurrent('MCP: generated and hostile arguments never get a 5xx', () => {
  test.for(registry.mcpTools().map((op) => [op.name, op] as const))('%s', async ([, op]) => {
    for (const args of [...hostileInputs(op), ...HOSTILE_VALUES]) expectMcpReply(op, await mcpCall(op, args), args)
    await inBatches(extremeInputs(op), async (args) => expectMcpReply(op, await mcpCall(op, args), args))
    await fc.assert(fc.asyncProperty(inputArbitrary(op), async (args) => {
      expectMcpReply(op, await mcpCall(op, args), args)
    }), { numRuns: RUNS, seed: SEED })
    driven.mcp.add(op.name)
  })
})

describe('coverage', () => {
  test('every registry operation was driven, on each transport that has it', () => {
    const total = registry.operations.length
    const all = new Set([...driven.rest, ...driven.mcp])
    console.log(`fuzz: ${all.size} of ${total} operations driven (REST ${driven.rest.size} + ${NOT_DRIVEN.rest.size} without a route; MCP ${driven.mcp.size} + ${NOT_DRIVEN.mcp.size} not tools; ${oversizeUrls} REST inputs over the URL limit not sent)`)
    for (const transport of ['rest', 'mcp'] as const) {
      const missing = registry.operations.filter((op) => !driven[transport].has(op.name) && !NOT_DRIVEN[transport].has(op.name)).map((op) => op.name)
      expect(missing, `${transport}: operations neither driven nor listed in NOT_DRIVEN`).toEqual([])
      expect(driven[transport].size + NOT_DRIVEN[transport].size).toBe(total)
    }
    expect(all.size).toBe(total)
  })
})
