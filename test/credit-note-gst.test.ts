// GST on a credit note (adjustment note): the credit is GST-inclusive and its GST is one eleventh,
// rounded half up to the cent, as a tax invoice shows it. $29.51 -> $26.83 + $2.68, on the note, in
// its PDF and in the financials; never more GST than the invoice still carries.
// Expected values come from decimal-string arithmetic here, not from src/core/gst.ts.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { creditGstCents } from '../src/domains/invoicing/adjust.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

/** Oracle: one eleventh of a dollar string ("29.51"), to the cent, half up, by long division on digits. */
function eleventh(dollars: string): string {
  const [whole, frac = ''] = dollars.split('.')
  const digits = `${whole}${frac.padEnd(2, '0')}` // cents, as a digit string
  // Divide cents by 11 keeping three decimals of a cent, then round half up on the first.
  let rest = 0
  let quotient = ''
  for (const d of `${digits}0`) {
    const n = rest * 10 + Number(d)
    quotient += String(Math.floor(n / 11))
    rest = n % 11
  }
  const tenthsOfCent = BigInt(quotient) // cents x 10
  const cents = tenthsOfCent / 10n + (tenthsOfCent % 10n >= 5n ? 1n : 0n)
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`
}
const minus = (a: string, b: string) => {
  const c = BigInt(a.replace('.', '')) - BigInt(b.replace('.', ''))
  return `${c / 100n}.${String(c % 100n).padStart(2, '0')}`
}

describe('creditGstCents', () => {
  it('is one eleventh of the credit, half up, whenever the invoice still carries that much GST', () => {
    expect(eleventh('29.51')).toBe('2.68')
    expect(eleventh('0.06')).toBe('0.01') // 0.545 c -> 1 c
    expect(eleventh('0.05')).toBe('0.00') // 0.4545 c -> 0 c
    fc.assert(fc.property(fc.integer({ min: 1, max: 100_000_000 }), (cents) => {
      const dollars = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
      const want = Math.round(Number(eleventh(dollars)) * 100)
      // An invoice of ten times the credit, at 10% GST, nothing credited yet: room for any split.
      const sub = cents * 10
      expect(creditGstCents(cents, sub, Math.round(sub / 10), { subtotalCents: 0, gstCents: 0 })).toBe(want)
    }), { numRuns: 1000 })
  })

  it('never takes the invoice below zero GST or zero subtotal across several notes', () => {
    // Subtotal 14 c, GST 1 c (1.4 c rounds down), total 15 c; two notes of 6 c would be 1 c GST each.
    const first = creditGstCents(6, 14, 1, { subtotalCents: 0, gstCents: 0 })
    expect(first).toBe(1)
    expect(creditGstCents(6, 14, 1, { subtotalCents: 5, gstCents: 1 })).toBe(0)
    // An invoice with no GST gives notes with none.
    expect(creditGstCents(2951, 5000, 0, { subtotalCents: 0, gstCents: 0 })).toBe(0)
    // All GST and no subtotal left: the whole credit is GST.
    expect(creditGstCents(10, 100, 20, { subtotalCents: 100, gstCents: 10 })).toBe(10)
  })
})

describe('a credit note for the $29.51 balance of a deposit invoice', () => {
  let app: TestApp
  let client: Client
  let key: string
  let outDir: string
  beforeAll(async () => {
    app = await startTestApp()
    key = (await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })).api_key
    client = await connectHttp(app, key)
    outDir = mkdtempSync(join(tmpdir(), 'credit-note-gst-'))
  })
  afterAll(async () => {
    await client?.close()
    await app?.stop()
    if (outDir) rmSync(outDir, { recursive: true, force: true })
  })

  it('is $26.83 + $2.68 GST on the note, in its PDF and in the financials', async () => {
    // One line of $30.05 ex GST: GST 3.005 -> $3.01, total $33.06, all of it asked as the deposit.
    // The invoice's own GST ratio (301/3306) would put 2951 x 301 / 3306 = 268.68 -> $2.69 on the note.
    const lead = (await tool(client, 'leads.create', { name: 'Casey Property', email: 'casey@example.com' })).lead
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Tap washer kit', quantity: 1, unitPrice: 30.05 }], deposit_percent: 100 })
    expect([quote.subtotal, quote.gst, quote.total]).toEqual([30.05, 3.01, 33.06])
    const sent = await tool(client, 'quotes.send', { quote_id: quote.id })
    const token = new URL(sent.public_url).pathname.split('/').pop()!
    const accepted = await fetch(`${app.url}/q/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Casey+Property', redirect: 'manual' })
    expect(accepted.status).toBe(303)
    const [row] = await app.owner<{ id: string }[]>`select id from invoices where quote_id = ${quote.id} and kind = 'deposit'`
    const deposit = (await app.call('GET', `/api/v1/invoices/${row!.id}`, { key })).body.invoice
    expect([deposit.total, deposit.gst]).toEqual([33.06, 3.01])

    // $3.55 paid leaves $29.51, then credited in full.
    const paid = await app.call('POST', `/api/v1/invoices/${deposit.id}/payments`, { key, body: { amount: 3.55, method: 'bank_transfer' } })
    expect(paid.status, JSON.stringify(paid.body)).toBe(201)
    const res = await app.call('POST', `/api/v1/invoices/${deposit.id}/credit-notes`, { key, body: { amount: 29.51, reason: 'Job not going ahead' } })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const gst = eleventh('29.51')
    const exGst = minus('29.51', gst)
    expect([gst, exGst]).toEqual(['2.68', '26.83'])
    const note = res.body.credit_note
    expect({ total: note.total, gst: note.gst, subtotal: note.subtotal }).toEqual({ total: 29.51, gst: Number(gst), subtotal: Number(exGst) })
    expect(note.lineItems.map((l: { total: number; gst: number }) => [l.total, l.gst])).toEqual([[Number(exGst), Number(gst)]])
    expect(res.body.invoice.status).toBe('Paid')

    const pdf = await fetch(note.pdfUrl)
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf'])
    const file = join(outDir, 'note.pdf')
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    expect(text).toContain(`$${gst}`)
    expect(text).toContain(`$${exGst}`)
    expect(text).not.toContain('$2.69')
    expect(text).not.toContain('$26.82')

    const fin = (await app.call('GET', '/api/v1/financials', { key })).body
    expect(fin.credited).toBe(29.51)
    expect(fin.credited_gst).toBe(Number(gst))
  })
})
