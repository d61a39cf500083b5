// Invoice allocation, property-based: for random quotes, deposits and claim sequences the invoices
// of a job add up to the quote (plus extras) to the cent, in subtotal and in GST, and none goes
// negative. First the pure cents maths against an independent BigInt oracle, then the real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { AppError } from '../src/core/errors.js'
import {
  basisFromAmount, basisFromQuote, claimAmount, claimLines, claimPercent, finalLines, gstOn, type Amounts, type BasisLine, type Invoiced,
} from '../src/domains/invoicing/allocation.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

// ---- Oracle: exact integer arithmetic, written apart from the code under test ----
/** n / d rounded half up, for non-negative n and positive d. */
const halfUp = (n: bigint, d: bigint) => (n % d) * 2n >= d ? n / d + 1n : n / d
const lineCents = (qtyMilli: number, priceCents: number) => Number(halfUp(BigInt(qtyMilli) * BigInt(priceCents), 1000n))
const tenPercent = (cents: number) => Number(halfUp(BigInt(cents), 10n))
/** The amount incl. GST of `hundredths` hundredths of a percent of `total`, rounded half up. */
const percentOf = (total: number, hundredths: number) => Number(halfUp(BigInt(total) * BigInt(hundredths), 10_000n))

interface QLine { qtyMilli: number; priceCents: number }
function quoteOracle(lines: QLine[]) {
  const lineTotals = lines.map((l) => lineCents(l.qtyMilli, l.priceCents))
  const subtotal = lineTotals.reduce((a, b) => a + b, 0)
  const gst = tenPercent(subtotal)
  return { lineTotals, subtotal, gst, total: subtotal + gst }
}

// ---- Generators ----
const cents = fc.oneof(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 5_000_000 }))
// A priced line comes to at least a cent (smaller ones are refused: core/gst.ts belowOneCent).
const billsSomething = (l: { qtyMilli: number; priceCents: number }) => l.priceCents === 0 || lineCents(l.qtyMilli, l.priceCents) > 0
const qLine = fc.record({ qtyMilli: fc.oneof(fc.constantFrom(1000, 2000, 500), fc.integer({ min: 1, max: 5_000_000 })), priceCents: cents }).filter(billsSomething)
type Claim = { kind: 'percent'; hundredths: number } | { kind: 'amount'; cents: number } | { kind: 'lines'; positions: number[] }
type Deposit = { kind: 'none' } | { kind: 'percent'; hundredths: number } | { kind: 'amount'; cents: number }

/** `whole` hundredths split into 1 to 4 positive parts (so percent claims that add to exactly 100%). */
const splitOf = (whole: number) =>
  fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, whole - 1) }), { maxLength: 3 })
    .map((cuts) => [0, ...cuts.filter((c) => c < whole).sort((a, b) => a - b), whole].slice(1).map((c, i, all) => c - (i ? all[i - 1]! : 0)).filter((h) => h > 0))

function scenario(maxLines: number, line: fc.Arbitrary<QLine>) {
  return fc.array(line, { minLength: 1, maxLength: maxLines }).chain((lines) => {
    const { total } = quoteOracle(lines)
    const deposit: fc.Arbitrary<Deposit> = fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.integer({ min: 1, max: 10_000 }).map((hundredths) => ({ kind: 'percent' as const, hundredths })),
      fc.integer({ min: 1, max: Math.max(1, total) }).map((c) => ({ kind: 'amount' as const, cents: c })),
    )
    const claim: fc.Arbitrary<Claim> = fc.oneof(
      fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 10_000 })).map((hundredths) => ({ kind: 'percent' as const, hundredths })),
      fc.integer({ min: 1, max: total + 5 }).map((c) => ({ kind: 'amount' as const, cents: c })),
      // About one line's price incl. GST: what makes the GST left, not the subtotal, refuse a later line claim.
      fc.tuple(fc.nat(lines.length - 1), fc.integer({ min: -2, max: 2 })).map(([i, d]) => {
        const t = quoteOracle([lines[i]!]).lineTotals[0]!
        return { kind: 'amount' as const, cents: Math.max(1, t + tenPercent(t) + d) }
      }),
      fc.array(fc.integer({ min: 1, max: lines.length + 1 }), { minLength: 1, maxLength: 4 }).map((positions) => ({ kind: 'lines' as const, positions })),
    )
    // A third of the time the claims are percentages adding up to exactly what the deposit left of 100%.
    const claims = deposit.chain((d) => {
      const rest = 10_000 - (d.kind === 'percent' ? d.hundredths : 0)
      const exact = d.kind !== 'amount' && rest > 0 ? splitOf(rest).map((hs) => hs.map((h): Claim => ({ kind: 'percent', hundredths: h }))) : fc.constant([] as Claim[])
      // Or: about one line's price incl. GST, then every other line, then anything (this is what can
      // leave too little GST, though enough subtotal, for the lines).
      const fitting = fc.tuple(fc.nat(lines.length - 1), fc.integer({ min: -2, max: 2 }), fc.array(claim, { maxLength: 3 })).map(([c, dc, more]): Claim[] => {
        const t = quoteOracle([lines[c]!]).lineTotals[0]!
        const others = lines.map((_, i) => i + 1).filter((p) => p !== c + 1)
        return [{ kind: 'amount', cents: Math.max(1, t + tenPercent(t) + dc) }, ...(others.length ? [{ kind: 'lines' as const, positions: others }] : []), ...more]
      })
      return fc.tuple(fc.constant(d), fc.oneof(fc.array(claim, { maxLength: 8 }), exact, fitting))
    })
    const extras = fc.array(fc.record({ qtyMilli: fc.integer({ min: 1, max: 50_000 }), priceCents: cents }).filter(billsSomething), { maxLength: 3 })
    return fc.tuple(fc.constant(lines), claims, extras).map(([ls, [d, cs], xs]) => ({ lines: ls, deposit: d, claims: cs, extras: xs }))
  })
}

// ---- The model: invoices made exactly as deposit.ts and service.ts make them ----
type Outcome = { ok: true; amounts: Amounts; positions?: number[] } | { ok: false; code: string }

function attempt(fn: () => Amounts | BasisLine[]): Outcome {
  try {
    const r = fn()
    if (Array.isArray(r)) return { ok: true, amounts: { subtotalCents: sum(r.map((l) => l.totalCents)), gstCents: sum(r.map((l) => l.gstCents)) }, positions: r.map((l) => l.position!) }
    return { ok: true, amounts: r }
  } catch (e) {
    if (!(e instanceof AppError)) throw e
    return { ok: false, code: e.code }
  }
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

/** Shared in proportion, the second line's GST share came out 1.1 cents above 10% of the line. */
const SHARE_OFF_BY_1_1: QLine[] = [{ qtyMilli: 500, priceCents: 863385 }, { qtyMilli: 4322040, priceCents: 3106465 }, { qtyMilli: 6, priceCents: 2190084 }, { qtyMilli: 2800639, priceCents: 65 }]

/** An amount claim leaves enough subtotal but 1 cent too little GST for lines 1 and 3: refused. */
const GST_TOO_SHORT_FOR_LINES = {
  lines: [{ qtyMilli: 1000, priceCents: 31 }, { qtyMilli: 1000, priceCents: 1682495 }, { qtyMilli: 654355, priceCents: 24 }],
  deposit: { kind: 'none' } as Deposit, claims: [{ kind: 'amount', cents: 1850745 }, { kind: 'lines', positions: [1, 3] }] as Claim[], extras: [],
}

describe('allocation.ts, pure, against an oracle', () => {
  it('basisFromQuote shares the quote GST exactly, each line within a cent of 10%', () => {
    fc.assert(fc.property(fc.array(qLine, { minLength: 1, maxLength: 20 }), (lines) => {
      const q = quoteOracle(lines)
      const basis = basisFromQuote(lines.map((l, i) => ({ description: `L${i}`, quantity: l.qtyMilli / 1000, unitPriceCents: l.priceCents, totalCents: q.lineTotals[i]!, position: i + 1 })), q.gst)
      expect(sum(basis.map((b) => b.gstCents))).toBe(q.gst)
      basis.forEach((b, i) => {
        expect(b.gstCents).toBeGreaterThanOrEqual(0)
        expect(Math.abs(b.gstCents * 10 - q.lineTotals[i]!)).toBeLessThanOrEqual(9) // 10% rounded down or up
      })
    }), { numRuns: 1000, examples: [[SHARE_OFF_BY_1_1]] })
  })

  it('basisFromAmount and gstOn round GST half up (one eleventh, one tenth)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e12 }), (c) => {
      const [line] = basisFromAmount('Job', c)
      expect(line!.gstCents).toBe(Number(halfUp(BigInt(c), 11n)))
      expect(line!.totalCents + line!.gstCents).toBe(c)
      expect(line!.totalCents).toBeGreaterThanOrEqual(0)
      expect(gstOn(c)).toBe(tenPercent(c))
    }), { numRuns: 500 })
    expect([gstOn(5), gstOn(4), gstOn(15), basisFromAmount('x', 6)[0]!.gstCents, basisFromAmount('x', 5)[0]!.gstCents]).toEqual([1, 0, 2, 1, 0])
  })

  it('deposit, claims and final add up to the quote plus extras, to the cent, and none is negative', () => {
    fc.assert(fc.property(scenario(20, qLine), fc.boolean(), ({ lines, deposit, claims, extras }, fromAmount) => {
      const q = quoteOracle(lines)
      // A job without a quote bills its amount as one line (then line claims must all be refused).
      const basis = fromAmount
        ? basisFromAmount('Job', q.total)
        : basisFromQuote(lines.map((l, i) => ({ description: `L${i}`, quantity: l.qtyMilli / 1000, unitPriceCents: l.priceCents, totalCents: q.lineTotals[i]!, position: i + 1 })), q.gst)
      const want = fromAmount ? { subtotal: q.total - Number(halfUp(BigInt(q.total), 11n)), gst: Number(halfUp(BigInt(q.total), 11n)) } : q
      const inv: Invoiced = { subtotalCents: 0, gstCents: 0, percentClaimed: 0, claimedPositions: new Set() }
      const issued: (Amounts & { kind: string })[] = []
      let hundredthsClaimed = 0
      const record = (kind: string, a: Amounts, hundredths?: number, positions?: number[]) => {
        issued.push({ kind, ...a })
        inv.subtotalCents += a.subtotalCents
        inv.gstCents += a.gstCents
        if (hundredths !== undefined) { inv.percentClaimed += hundredths / 100; hundredthsClaimed += hundredths }
        for (const p of positions ?? []) inv.claimedPositions.add(p)
      }
      const left = () => q.total - inv.subtotalCents - inv.gstCents

      // The deposit, as deposit.ts issues it on acceptance (none when the quote is all $0 lines).
      if (deposit.kind !== 'none' && want.subtotal > 0) {
        const asked = deposit.kind === 'percent' ? percentOf(q.total, deposit.hundredths) : deposit.cents
        const got = attempt(() => deposit.kind === 'percent' ? claimPercent(basis, inv, deposit.hundredths / 100) : claimAmount(basis, inv, deposit.cents))
        // A percentage that rounds to $0.00 is refused here; deposit.ts then issues no deposit (see the last test).
        if (asked === 0) expect(got).toEqual({ ok: false, code: 'validation_error' })
        else {
          expect(got.ok).toBe(true)
          if (got.ok) {
            expect(got.amounts.subtotalCents + got.amounts.gstCents).toBe(asked)
            record('deposit', got.amounts, deposit.kind === 'percent' ? deposit.hundredths : undefined)
          }
        }
      }

      for (const c of claims) {
        const before = { ...inv, claimedPositions: new Set(inv.claimedPositions) }
        const issuedBefore = issued.length
        if (c.kind === 'lines') {
          const wanted = [...new Set(c.positions)]
          const got = attempt(() => claimLines(basis, inv, c.positions))
          const bad = fromAmount || wanted.some((p) => p > lines.length || inv.claimedPositions.has(p))
          const s = sum(wanted.map((p) => q.lineTotals[p - 1] ?? 0))
          const g = sum(wanted.map((p) => basis[p - 1]?.gstCents ?? 0)) // shares checked by the first property
          if (bad) expect(got).toEqual({ ok: false, code: 'validation_error' })
          // Refused exactly when those lines do not fit in what is left, in subtotal or in GST.
          else if (s > want.subtotal - inv.subtotalCents || g > want.gst - inv.gstCents) expect(got).toEqual({ ok: false, code: 'conflict' })
          else {
            expect(got.ok).toBe(true)
            if (!got.ok) return
            expect([...got.positions!].sort((a, b) => a - b)).toEqual([...wanted].sort((a, b) => a - b))
            expect(got.amounts).toEqual({ subtotalCents: s, gstCents: g }) // exactly those quote lines
            record('progress', got.amounts, undefined, wanted)
          }
        } else {
          const asked = c.kind === 'percent' ? percentOf(q.total, hundredthsClaimed + c.hundredths) - percentOf(q.total, hundredthsClaimed) : c.cents
          const got = attempt(() => c.kind === 'percent' ? claimPercent(basis, inv, c.hundredths / 100) : claimAmount(basis, inv, c.cents))
          if (asked > left()) expect(got).toEqual({ ok: false, code: 'conflict' })
          else if (asked <= 0) expect(got).toEqual({ ok: false, code: 'validation_error' })
          else {
            expect(got.ok).toBe(true)
            if (got.ok) {
              expect(got.amounts.subtotalCents + got.amounts.gstCents).toBe(asked)
              record('progress', got.amounts, c.kind === 'percent' ? c.hundredths : undefined)
            }
          }
        }
        // The functions never touch what they are given; nothing invoiced ever overdraws subtotal or GST.
        if (issued.length === issuedBefore) expect(inv).toEqual(before)
        expect(inv.subtotalCents).toBeLessThanOrEqual(want.subtotal)
        expect(inv.gstCents).toBeLessThanOrEqual(want.gst)
      }

      const xs = extras.map((x, i) => ({ description: `X${i}`, quantity: x.qtyMilli / 1000, unitPriceCents: x.priceCents, totalCents: lineCents(x.qtyMilli, x.priceCents) }))
      const prior = issued.map((p, i) => ({ number: `INV-${i + 1}`, kind: p.kind, subtotalCents: p.subtotalCents, gstCents: p.gstCents }))
      const fl = finalLines(basis, xs, prior, !fromAmount)
      const final = { subtotalCents: sum(fl.map((l) => l.totalCents)), gstCents: sum(fl.map((l) => l.gstCents)) }
      expect(fl.filter((l) => l.source === 'extra').map((l) => l.gstCents)).toEqual(xs.map((x) => tenPercent(x.totalCents)))
      expect(fl.filter((l) => l.source === 'less_invoiced').map((l) => l.sourceInvoiceNumber)).toEqual(prior.filter((p) => p.subtotalCents || p.gstCents).map((p) => p.number))

      const extrasSub = sum(xs.map((x) => x.totalCents))
      const extrasGst = sum(xs.map((x) => tenPercent(x.totalCents)))
      const all = [...issued, { kind: 'final', ...final }]
      expect(sum(all.map((i) => i.subtotalCents))).toBe(want.subtotal + extrasSub)
      expect(sum(all.map((i) => i.gstCents))).toBe(want.gst + extrasGst)
      expect(sum(all.map((i) => i.subtotalCents + i.gstCents))).toBe(q.total + extrasSub + extrasGst)
      for (const i of all) {
        expect(i.subtotalCents).toBeGreaterThanOrEqual(0)
        expect(i.gstCents).toBeGreaterThanOrEqual(0)
      }
      // Percentages adding to exactly 100% leave nothing for the final but the extras.
      if (hundredthsClaimed === 10_000) expect(final).toEqual({ subtotalCents: extrasSub, gstCents: extrasGst })
    }), { numRuns: 3000, examples: [[GST_TOO_SHORT_FOR_LINES, false]] })
  })
})

describe('through the service: quote, deposit on acceptance, claims, extras, final invoice', () => {
  let app: TestApp
  let client: Client
  let key: string
  beforeAll(async () => {
    app = await startTestApp()
    key = (await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })).api_key
    expect((await app.call('POST', '/api/v1/payments/account', { key })).body.account).toMatchObject({ status: 'active' })
    client = await connectHttp(app, key)
  })
  afterAll(async () => {
    await client?.close()
    await app?.stop()
  })

  /** Every invoice of the job (the deposit moved onto it when the job was created), oldest first. */
  const invoicesOf = (jobId: string, quoteId: string) => app.owner<{ kind: string; subtotal_cents: string; gst_cents: string; total_cents: string }[]>`
    select kind, subtotal_cents, gst_cents, total_cents from invoices where job_id = ${jobId} or quote_id = ${quoteId} order by invoice_number`
  const totalOf = (rows: { total_cents: string }[]) => sum(rows.map((r) => Number(r.total_cents)))

  /** Runs one scenario end to end and checks every invoice against the oracle. */
  async function run({ lines, deposit, claims, extras }: { lines: QLine[]; deposit: Deposit; claims: Claim[]; extras: QLine[] }) {
    const q = quoteOracle(lines)
    const lead = (await tool(client, 'leads.create', { name: 'Casey Property' })).lead
    const depositArg = deposit.kind === 'percent' ? { deposit_percent: deposit.hundredths / 100 } : deposit.kind === 'amount' && deposit.cents <= q.total ? { deposit_amount: deposit.cents / 100 } : {}
    const { quote } = await tool(client, 'quotes.create', {
      lead_id: lead.id, line_items: lines.map((l, i) => ({ description: `Item ${i + 1}`, quantity: l.qtyMilli / 1000, unitPrice: l.priceCents / 100 })), ...depositArg,
    })
    expect([quote.subtotal, quote.gst, quote.total].map((d: number) => Math.round(d * 100))).toEqual([q.subtotal, q.gst, q.total])
    const sent = await tool(client, 'quotes.send', { quote_id: quote.id })
    const token = new URL(sent.public_url).pathname.split('/').pop()!
    const accepted = await fetch(`${app.url}/q/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Casey+Property', redirect: 'manual' })
    expect(accepted.status).toBe(303)
    const job = { id: (await tool(client, 'quotes.list', { lead_id: lead.id })).quotes.find((x: any) => x.id === quote.id).job_id as string } // opened on acceptance
    await tool(client, 'jobs.update', { job_id: job.id, status: 'In Progress' })

    let hundredths = 0
    const depositAsked = !('deposit_percent' in depositArg || 'deposit_amount' in depositArg) ? 0
      : deposit.kind === 'percent' ? percentOf(q.total, deposit.hundredths) : (deposit as { cents: number }).cents
    let rows = await invoicesOf(job.id, quote.id)
    // A deposit that rounds to $0.00 (or on a $0 quote) is not invoiced.
    expect(rows.map((r) => [r.kind, Number(r.total_cents)])).toEqual(depositAsked > 0 && q.subtotal > 0 ? [['deposit', depositAsked]] : [])
    if (rows.length && deposit.kind === 'percent') hundredths += deposit.hundredths

    for (const c of claims) {
      const left = q.total - totalOf(rows)
      const progress_claim = c.kind === 'percent' ? { percent: c.hundredths / 100 } : c.kind === 'amount' ? { amount: c.cents / 100 } : { line_items: c.positions }
      const res = await client.callTool({ name: 'invoicing.generate', arguments: { job_id: job.id, progress_claim } })
      const after = await invoicesOf(job.id, quote.id)
      const asked = c.kind === 'percent' ? percentOf(q.total, hundredths + c.hundredths) - percentOf(q.total, hundredths) : c.kind === 'amount' ? c.cents : null
      if (res.isError) {
        expect(['conflict', 'validation_error']).toContain((res.structuredContent as { error: string }).error)
        expect(after).toEqual(rows) // a refused claim changes nothing
        if (asked !== null) expect(asked > left || asked <= 0).toBe(true)
        continue
      }
      expect(after).toHaveLength(rows.length + 1)
      const made = after.at(-1)!
      if (asked !== null) expect(Number(made.total_cents)).toBe(asked)
      else {
        const positions = [...new Set((c as { positions: number[] }).positions)]
        expect(Number(made.subtotal_cents)).toBe(sum(positions.map((p) => q.lineTotals[p - 1]!)))
        expect(Math.abs(Number(made.gst_cents) * 10 - Number(made.subtotal_cents))).toBeLessThanOrEqual(9 * positions.length)
      }
      if (c.kind === 'percent') hundredths += c.hundredths
      rows = after
    }

    const xs = extras.map((x, i) => ({ description: `Extra ${i + 1}`, quantity: x.qtyMilli / 1000, unitPrice: x.priceCents / 100 }))
    if (xs.length) await tool(client, 'jobs.update', { job_id: job.id, add_extras: xs })
    await tool(client, 'jobs.complete', { job_id: job.id })
    await tool(client, 'invoicing.generate', { job_id: job.id })

    const all = await invoicesOf(job.id, quote.id)
    const extrasSub = sum(extras.map((x) => lineCents(x.qtyMilli, x.priceCents)))
    const extrasGst = sum(extras.map((x) => tenPercent(lineCents(x.qtyMilli, x.priceCents))))
    expect(all.filter((r) => r.kind === 'final')).toHaveLength(1)
    expect(sum(all.map((r) => Number(r.subtotal_cents)))).toBe(q.subtotal + extrasSub)
    expect(sum(all.map((r) => Number(r.gst_cents)))).toBe(q.gst + extrasGst)
    for (const r of all) {
      expect(Number(r.subtotal_cents)).toBeGreaterThanOrEqual(0)
      expect(Number(r.gst_cents)).toBeGreaterThanOrEqual(0)
      expect(Number(r.total_cents)).toBe(Number(r.subtotal_cents) + Number(r.gst_cents))
    }
    if (hundredths === 10_000) expect(Number(all.at(-1)!.total_cents)).toBe(extrasSub + extrasGst)
    const listed = await app.call('GET', `/api/v1/jobs?lead_id=${lead.id}`, { key })
    expect(listed.body.jobs.map((j: any) => [j.id, Math.round(j.invoicing.invoiced * 100)])).toEqual([[job.id, q.total + extrasSub + extrasGst]])
  }

  it('invoices add up to the quote plus extras to the cent, for random quotes, deposits and claims', async () => {
    // Up to 100 units at up to $5,000: quotes stay under the $10M the API takes as a deposit or claim.
    const line = fc.record({ qtyMilli: fc.oneof(fc.constantFrom(1000, 2000, 500), fc.integer({ min: 1, max: 100_000 })), priceCents: fc.oneof(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 100, max: 500_000 })) }).filter(billsSomething)
    await fc.assert(fc.asyncProperty(scenario(6, line), run), { numRuns: 15 })
  })

  it('a percentage deposit that rounds to $0.00 does not stop the client accepting', async () => {
    // 1% of $0.48 (44c + 4c GST) is 0.48 cents: no deposit to invoice, and the quote is still accepted.
    await run({ lines: [{ qtyMilli: 1000, priceCents: 44 }], deposit: { kind: 'percent', hundredths: 100 }, claims: [{ kind: 'percent', hundredths: 5000 }], extras: [] })
  })
})
