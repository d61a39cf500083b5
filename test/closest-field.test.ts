// Unknown fields are answered with the name that was most likely meant: the pure rule, then through
// MCP and REST on a real tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Type } from 'typebox'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { closestFields, didYouMean, knownFieldsAt } from '../src/core/closest-field.js'

const closestField = (name: string, known: string[]) => closestFields(name, known)[0] ?? null
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

describe('closestField', () => {
  const quoteFields = ['lead_id', 'line_items', 'deposit_percent', 'valid_until', 'notes']
  it('another spelling of the same letters', () => {
    expect(closestField('jobID', ['job_id', 'amount'])).toBe('job_id')
    expect(closestField('lead-id', quoteFields)).toBe('lead_id')
    expect(closestField('validUntil', quoteFields)).toBe('valid_until')
  })
  it('a shorter or longer name for the same thing', () => {
    expect(closestField('price', ['description', 'quantity', 'unitPrice', 'service_id'])).toBe('unitPrice')
    expect(closestField('deposit', quoteFields)).toBe('deposit_percent')
    // Every name that contains it, closest first.
    expect(closestFields('deposit', ['deposit_amount', 'deposit_percent', 'notes'])).toEqual(['deposit_amount', 'deposit_percent'])
    expect(didYouMean('deposit', ['deposit_amount', 'deposit_percent'])).toBe('; did you mean deposit_amount or deposit_percent?')
    expect(didYouMean('colour', ['notes'])).toBe('')
    expect(closestField('line_items_list', quoteFields)).toBe('line_items')
  })
  it('a near miss', () => {
    expect(closestField('adress', ['name', 'address', 'phone'])).toBe('address')
    expect(closestField('quantitiy', ['description', 'quantity', 'unitPrice'])).toBe('quantity')
  })
  it('nothing when nothing is close', () => {
    expect(closestField('colour', quoteFields)).toBeNull()
    expect(closestField('x', ['y', 'z'])).toBeNull()
    expect(closestField('', quoteFields)).toBeNull()
    // Two letters in a long name are not a guess.
    expect(closestField('id', ['description', 'quantity'])).toBeNull()
  })
  it('finds the fields at a nested path, through arrays and nullable objects', () => {
    const schema = Type.Object({
      items: Type.Array(Type.Object({ unitPrice: Type.Number(), quantity: Type.Number() })),
      deposit: Type.Union([Type.Object({ percent: Type.Number() }), Type.Null()]),
    })
    expect(knownFieldsAt(schema, '')).toEqual(['items', 'deposit'])
    expect(knownFieldsAt(schema, '/items/3')).toEqual(['unitPrice', 'quantity'])
    expect(knownFieldsAt(schema, '/deposit')).toEqual(['percent'])
    expect(knownFieldsAt(schema, '/nothing/here')).toEqual([])
  })
})

describe('through the tools', () => {
  let app: TestApp
  let client: Client
  let key: string
  beforeAll(async () => {
    app = await startTestApp({ worker: false })
    key = (await onboard(app, { plan: 'business' })).api_key
    client = await connectHttp(app, key)
  })
  afterAll(async () => {
    await client?.close()
    await app?.stop()
  })

  it('quotes.create with price and deposit names unitPrice and deposit_percent, over MCP and REST', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Guessing Agent' })
    const args = { lead_id: lead.id, deposit: 20, line_items: [{ description: 'Hot water system', quantity: 1, price: 2975 }] }
    const overMcp = await toolError(client, 'quotes.create', args)
    expect(overMcp.error).toBe('validation_error')
    expect(overMcp.messages).toEqual(expect.arrayContaining([
      'deposit: is not a known field; did you mean deposit_amount or deposit_percent?',
      'line_items.0.price: is not a known field; did you mean unitPrice?',
    ]))
    const overRest = await app.call('POST', '/api/v1/quotes', { key, body: args })
    expect(overRest.status).toBe(400)
    expect(overRest.body.messages).toEqual(overMcp.messages)
  })
})
