// Starts CHASES payment chases and FOLLOW_UPS quote follow-ups at once and measures the time until
// every first reminder is handed to the SMS provider (communications.handed_to_provider_at), and the
// peak memory of the process, which runs the API and the Temporal worker together (as `npm start`).
// The invoices (overdue since yesterday) and the quotes (sent 10 s ago) are seeded straight into the
// database; the runs are started through the same start functions an invoice send and a quote send
// use (record the run, queue the start in the transaction, start after commit). Policies put the
// first step due at once: the chase catches up to its due-date step, the first follow-up is a
// "day" (AUTOMATION_DAY_MS = 1 s) after the send; later steps are far off, so runs stay open on
// their timers as real ones do.
// Run: npm run bench:automations   (env: CHASES=500, FOLLOW_UPS=500, BATCH=50)
import { withTenantThenStart } from '../src/temporal/outbox.js'
import { startInvoiceChase } from '../src/domains/automations/payment-chase/chase-payment.js'
import { startQuoteFollowUp } from '../src/domains/automations/quote-follow-up/follow-up-quote.js'
import { companyTimeZone } from '../src/core/company-time.js'
import { reportResult, startBenchService } from './harness.js'

const chases = Number(process.env.CHASES ?? 500)
const followUps = Number(process.env.FOLLOW_UPS ?? 500)
const batch = Number(process.env.BATCH ?? 50)
const GOAL_MS = 60_000
const DEADLINE_MS = 300_000

let peakRss = process.memoryUsage().rss
const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss) }, 100)
const service = await startBenchService('Bench Automations', { AUTOMATION_DAY_MS: 1000 })
const { owner, companyId, runtime } = service
const deps = runtime.deps
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024)

// Policies (the company's settings): first step due now, the next one far away.
await owner`insert into automation_settings (company_id, automation, enabled, settings) values
  (${companyId}, 'chase_payment', true, ${owner.json({ steps: [{ offset_days: 0, tone: 'friendly' }, { offset_days: 365, tone: 'final' }] })}),
  (${companyId}, 'follow_up_quote', true, ${owner.json({ delays_days: [1, 60] })})
  on conflict (company_id, automation) do update set enabled = true, settings = excluded.settings`

// Seed: one lead with an Australian mobile per invoice and per quote.
const today = (await owner<{ today: string }[]>`select to_char((now() at time zone 'Australia/Sydney')::date, 'YYYY-MM-DD') as today`)[0]!.today
await owner`
  insert into leads (company_id, name, phone, source)
  select ${companyId}, 'Client ' || n, '+6141' || lpad(n::text, 7, '0'), case when n <= ${chases} then 'bench-invoice' else 'bench-quote' end
  from generate_series(1, ${chases + followUps}) n`
const invoices = await owner<{ id: string; due_date: string }[]>`
  insert into invoices (company_id, lead_id, invoice_number, kind, status, subtotal_cents, gst_cents, total_cents, issue_date, due_date, public_token, sent_at, sent_count)
  select company_id, id, 'INV-' || lpad(row_number() over (order by id)::text, 5, '0'), 'final', 'Sent', 40000, 4000, 44000,
         ${today}::date - 15, ${today}::date - 1, md5(random()::text || id), now(), 1
  from leads where company_id = ${companyId} and source = 'bench-invoice'
  returning id, to_char(due_date, 'YYYY-MM-DD') as due_date`
const sentAt = new Date(Date.now() - 10_000)
const quotes = await owner<{ id: string; valid_until: string }[]>`
  insert into quotes (company_id, lead_id, quote_number, status, subtotal_cents, gst_cents, total_cents, valid_until, public_token, sent_count, sent_at)
  select company_id, id, 'Q-' || lpad(row_number() over (order by id)::text, 5, '0'), 'Sent', 30000, 3000, 33000,
         ${today}::date + 30, md5(random()::text || id), 1, ${sentAt}
  from leads where company_id = ${companyId} and source = 'bench-quote'
  returning id, to_char(valid_until, 'YYYY-MM-DD') as valid_until`

// Start them all at once: batches of `batch` starts per transaction, all batches concurrently.
const jobs: (() => Promise<unknown>)[] = []
for (let i = 0; i < invoices.length; i += batch) {
  const slice = invoices.slice(i, i + batch)
  jobs.push(() => withTenantThenStart(deps, companyId, async (tx, start) => {
    for (const inv of slice) await startInvoiceChase(deps, tx, start, { companyId, invoiceId: inv.id, dueDate: inv.due_date })
  }))
}
for (let i = 0; i < quotes.length; i += batch) {
  const slice = quotes.slice(i, i + batch)
  jobs.push(() => withTenantThenStart(deps, companyId, async (tx, start) => {
    const timeZone = await companyTimeZone(tx)
    for (const q of slice) await startQuoteFollowUp(deps, tx, start, { companyId, quoteId: q.id, sendNumber: 1, sentAt, validUntil: q.valid_until, timeZone })
  }))
}
const rssBefore = process.memoryUsage().rss
const t0 = (await owner<{ t0: Date }[]>`select clock_timestamp() as t0`)[0]!.t0
const started = Date.now()
await Promise.all(jobs.map((run) => run()))
const startsMs = Date.now() - started

const target = chases + followUps
// Only each run's first reminder counts: the chase's second step is a year away, but a run slower than
// the second follow-up's 60 "days" would otherwise count that one too (quote-follow-up:<quote>:<send>:<number>).
let handed = 0
while (Date.now() - started < DEADLINE_MS) {
  handed = (await owner<{ handed: number }[]>`
    select count(*)::int as handed from communications
    where company_id = ${companyId} and handed_to_provider_at is not null and (idempotency_key like 'invoice-chase:%' or (idempotency_key like 'quote-follow-up:%' and split_part(idempotency_key, ':', 4) = '1'))`)[0]!.handed
  if (handed >= target) break
  await new Promise((r) => setTimeout(r, 250))
}
clearInterval(sampler)

const latencies = await owner<{ kind: string; ms: number }[]>`
  select case when idempotency_key like 'invoice-chase:%' then 'chase' else 'follow_up' end as kind,
         extract(epoch from (handed_to_provider_at - ${t0})) * 1000 as ms
  from communications
  where company_id = ${companyId} and handed_to_provider_at is not null and (idempotency_key like 'invoice-chase:%' or (idempotency_key like 'quote-follow-up:%' and split_part(idempotency_key, ':', 4) = '1'))
  order by ms`
const summary = (kind?: string) => {
  const ms = latencies.filter((l) => !kind || l.kind === kind).map((l) => Number(l.ms))
  const pct = (p: number) => (ms.length ? Math.round(ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)]!) : null)
  return { handed: ms.length, p50_ms: pct(50), p90_ms: pct(90), max_ms: pct(100) }
}
const all = summary()
const withinGoal = handed >= target && all.max_ms !== null && all.max_ms < GOAL_MS
reportResult('automations', {
  headline: {
    ratio_of: `no baseline: ${chases} payment chases + ${followUps} quote follow-ups started at once -> every first reminder handed over`,
    ratio: null, better: 'lower', goal: `all within ${GOAL_MS / 1000} s`, met: withinGoal,
    figures: { 'all handed ms': handed >= target ? all.max_ms : null, 'p50 ms': all.p50_ms, handed, 'peak RSS MB': mb(peakRss) },
  },
  chases, follow_ups: followUps, start_batch: batch, automation_day_ms: 1000,
  starts_committed_and_dispatched_ms: startsMs,
  first_reminders_handed: handed,
  all_first_reminders_handed_ms: handed >= target ? all.max_ms : null,
  goal_ms: GOAL_MS,
  within_goal: withinGoal,
  chase: summary('chase'),
  follow_up: summary('follow_up'),
  memory_mb: { rss_before_start: mb(rssBefore), peak_rss: mb(peakRss), note: 'one process: API, Temporal worker and this driver (the dev server is a separate process)' },
})
await service.stop()
process.exit(handed >= target ? 0 : 1)
