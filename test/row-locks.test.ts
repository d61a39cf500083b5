// Row locks that let a message be recorded while its quote or lead is being updated. An update
// locks the row it changes with FOR NO KEY UPDATE, not FOR UPDATE: a row inserted elsewhere that
// points at it (a message's quote_id and lead_id) takes FOR KEY SHARE for its foreign key, which
// FOR UPDATE blocks and FOR NO KEY UPDATE does not. With FOR UPDATE, quotes.update Accepted
// (quote, then its lead) and a send of a message about that quote (lead and quote keys) deadlocked
// under load, and the update answered internal_error (seen in the full suite, 2026-11-26).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { findQuote } from '../src/domains/quotes/queries.js'
import { findLead } from '../src/domains/leads/queries.js'

let app: TestApp

beforeAll(async () => {
  app = await startTestApp({ worker: false })
})
afterAll(async () => {
  await app?.stop()
})

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f))
}

describe('row locks', () => {
  it('no query in src/ locks a row FOR UPDATE (no key is ever changed: FOR NO KEY UPDATE)', () => {
    const offending = sourceFiles('src').filter((file) => /\bfor\s+update\b/i.test(readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '')))
    expect(offending).toEqual([])
  })

  it('while an update holds the quote, a message about it is recorded, and the update then takes its lead', async () => {
    const company = await onboard(app, { plan: 'business' })
    const client = await connectHttp(app, company.api_key)
    try {
      const { lead } = await tool(client, 'leads.create', { name: 'Lock Test', phone: '0412 555 010' })
      const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Tap', quantity: 1, unitPrice: 110 }] })
      const order: string[] = []
      await app.owner.begin(async (update) => {
        expect(await findQuote(update, quote.id, '2026-01-01', { forUpdate: true })).not.toBeNull()
        order.push('quote locked')
        // Another transaction records a message pointing at the quote and the lead (their keys, FOR KEY SHARE).
        await app.owner.begin(async (send) => {
          await send`set local lock_timeout = '3s'`
          await send`insert into communications (company_id, channel, message_type, to_address, body, provider, status, idempotency_key, lead_id, quote_id)
                     values (${company.company_id}, 'sms', 'quote', '+61412555010', 'Your quote', 'local-outbox', 'recorded', ${`lock-test:${quote.id}`}, ${lead.id}, ${quote.id})`
          order.push('message recorded')
        })
        expect(await findLead(update, lead.id, { forUpdate: true })).not.toBeNull()
        order.push('lead locked')
      })
      expect(order).toEqual(['quote locked', 'message recorded', 'lead locked'])
    } finally {
      await client.close()
    }
  })
})
