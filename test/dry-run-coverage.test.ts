// Every tool that messages a customer can show what it would send before it sends it (issue 21):
// a write tool whose annotations say it reaches the outside world (openWorldHint) takes a boolean
// `dry_run` and answers with `dry_run` and `messages`, unless it is listed below with the reason it
// sends nothing to a customer. Read from the registry, so a new sending tool fails here until it
// has its dry run (its behaviour is tested beside its domain, and for the workflow tools and
// leads.create in test/workflow-dry-runs.test.ts).
import { describe, expect, it } from 'vitest'
import Type from 'typebox'
import { createRegistry } from '../src/domains/index.js'
import { defineOperation, type AnyOperation } from '../src/core/operation.js'
import { SEND } from '../src/core/annotations.js'
import { DryRun, SentMessage } from '../src/domains/shared-schema.js'

const registry = createRegistry()

/** Sending tools without a dry run, and why none is needed: none of them messages a customer. */
const NOT_CUSTOMER_MESSAGES: Record<string, string> = {
  'billing.create_checkout': "opens a Stripe Checkout page for the owner's own subscription; nothing is sent to a customer",
  'billing.get_portal': "opens the owner's Stripe billing portal; nothing is sent to a customer",
  'wallet.deposit': "opens a hosted payment for the owner's own wallet credit; nothing is sent to a customer",
  'wallet.crypto_deposit': "opens a crypto payment for the owner's own wallet credit; nothing is sent to a customer",
  'integrations.push_entity': "writes a contact or invoice into the company's own accounting package (created there without being emailed); nothing is sent to a customer",
  'integrations.sync': "asks the connection's sync workflow for a round: records go into the company's own accounting package and its contacts and payments come back here; nothing is sent to a customer",
  'workflows.team_notify': "messages the owner's own team (technicians, staff), never a customer",
}

type Schema = { type?: string; default?: unknown; properties?: Record<string, Schema>; items?: Schema }
const properties = (schema: unknown) => ((schema as Schema).properties ?? {})

/** Reaches the outside world and changes something: a write with openWorldHint. */
const sends = (op: AnyOperation) => !op.planned && op.annotations.openWorldHint === true && op.annotations.readOnlyHint !== true

/** The sending tools that take no boolean dry_run and are not listed as sending no customer message. */
function missingDryRun(ops: AnyOperation[]): string[] {
  return ops.filter((op) => sends(op) && properties(op.input).dry_run?.type !== 'boolean' && !(op.name in NOT_CUSTOMER_MESSAGES)).map((op) => op.name)
}

describe('dry_run on every tool that messages a customer', () => {
  it('every write tool that reaches the outside world takes dry_run, except the listed ones', () => {
    expect(missingDryRun(registry.operations)).toEqual([])
  })

  it('a new sending tool without dry_run fails the check', () => {
    const probe = defineOperation({
      name: 'comms.probe_send', domain: 'comms', title: 'Probe', description: 'A sending tool written without a dry run.',
      input: Type.Object({ to: Type.String() }), output: Type.Object({}), access: { permission: 'write' }, cost: 'write', annotations: SEND,
      run: async () => ({}),
    })
    expect(missingDryRun(registry.with([probe]).operations)).toEqual(['comms.probe_send'])
  })

  it('the listed exceptions are sending tools that exist and take no dry_run', () => {
    for (const name of Object.keys(NOT_CUSTOMER_MESSAGES)) {
      const op = registry.get(name)
      expect(op, name).toBeDefined()
      expect(sends(op!), name).toBe(true)
      expect(properties(op!.input).dry_run, name).toBeUndefined()
    }
  })

  it('each dry_run is a boolean, false by default; the tools built for it share one definition', () => {
    const withDryRun = registry.operations.filter((op) => properties(op.input).dry_run)
    expect(withDryRun.length).toBeGreaterThan(Object.keys(NOT_CUSTOMER_MESSAGES).length)
    const shared = JSON.stringify(DryRun)
    for (const op of withDryRun) {
      const arg = properties(op.input).dry_run!
      expect(arg, op.name).toMatchObject({ type: 'boolean', default: false })
      // invoicing.generate's own wording adds that the issued invoice's link token differs.
      if (op.name !== 'invoicing.generate') expect(JSON.stringify(arg), op.name).toBe(shared)
    }
  })

  it('a tool with dry_run says it reaches the outside world, and answers with dry_run and the messages', () => {
    for (const op of registry.operations.filter((o) => properties(o.input).dry_run)) {
      expect(sends(op), `${op.name} takes dry_run but its annotations do not say it sends`).toBe(true)
      const out = properties(op.output)
      expect(out.dry_run?.type, op.name).toBe('boolean')
      expect(out.messages?.type, op.name).toBe('array')
      expect(JSON.stringify(out.messages!.items), op.name).toBe(JSON.stringify(SentMessage))
    }
  })
})
