// Recovery options for badly overdue invoices: advice only, nothing is sent or filed. The court and
// tribunal limits come from ../shared/reference/au-trade-facts.md section 6, each with its source;
// they change, so they are shown with their source and the date of the reference sheet.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound } from '../../core/errors.js'
import { centsToDollars, formatCents } from '../../core/money.js'
import { addDays } from '../../core/period.js'
import { companyToday } from '../../core/company-time.js'
import { withTenant } from '../../db/sql.js'
import { findJobId, listOverdueInvoices } from './queries/chase.js'
import type { RecoveryInput } from './schema.js'
import { readSettings } from './settings.js'
import { SECURITY_OF_PAYMENT_ACTS, SOP_SOURCE } from './sop.js'

const SHEET = 'FY2025-26 reference sheet (au-trade-facts.md, compiled 2026)'

/** Small or minor claims forum per state (au-trade-facts.md section 6). */
export const SMALL_CLAIMS: Record<string, { forum: string; limitCents: number | null; note: string; source: string }> = {
  NSW: { forum: 'Local Court, Small Claims Division', limitCents: 2_000_000, note: 'General Division to $100,000.', source: 'judcom.nsw.gov.au; legalvision.com.au' },
  VIC: { forum: "VCAT Civil Claims List, or the Magistrates' Court (claims under $10,000 go to arbitration)", limitCents: null, note: "VCAT's limit is unconfirmed; Magistrates' Court to $100,000.", source: 'mcv.vic.gov.au (archived); guo.com.au' },
  QLD: { forum: 'QCAT minor civil dispute (minor debt)', limitCents: 2_500_000, note: 'Excluding interest, within 6 years; Magistrates Court to $150,000.', source: 'qcat.qld.gov.au; qld.gov.au' },
  WA: { forum: 'Magistrates Court, minor case', limitCents: 1_000_000, note: 'Current limit unconfirmed; general procedure to $75,000.', source: 'armstronglegal.com.au; cclswa.org.au' },
  SA: { forum: 'Magistrates Court, minor civil action', limitCents: 1_200_000, note: 'Since 1 Aug 2016; general to $100,000.', source: 'courts.sa.gov.au' },
  TAS: { forum: 'Magistrates Court, minor civil claim', limitCents: 500_000, note: 'Civil division to $50,000.', source: 'gotocourt.com.au (3rd-party)' },
  ACT: { forum: 'ACT Civil and Administrative Tribunal (ACAT)', limitCents: 2_500_000, note: 'Magistrates Court to $250,000.', source: 'armstronglegal.com.au (3rd-party)' },
  NT: { forum: 'NT Civil and Administrative Tribunal (NTCAT)', limitCents: 2_500_000, note: 'An older NT court page said $10,000.', source: 'armstronglegal.com.au (3rd-party)' },
}

const money = formatCents

/** Instalments that add up to the balance exactly (the last takes the remainder), fortnightly from two weeks out. */
export function paymentPlan(balanceCents: number, today: string) {
  const count = balanceCents >= 300_000 ? 6 : balanceCents >= 100_000 ? 4 : 2
  const each = Math.floor(balanceCents / count)
  return Array.from({ length: count }, (_, i) => ({
    due: addDays(today, 14 * (i + 1)),
    amount: centsToDollars(i === count - 1 ? balanceCents - each * (count - 1) : each),
  }))
}

export async function recoveryOptions(deps: Deps, principal: Principal, input: Static<typeof RecoveryInput>) {
  const { rows, settings, today } = await withTenant(deps.db, principal.companyId, async (tx) => {
    const today = await companyToday(tx, deps.clock.now())
    if (input.job_id) {
      const job = await findJobId(tx, input.job_id)
      if (!job) throw notFound('Job')
    }
    return { rows: await listOverdueInvoices(tx, today, input.job_id ? { jobId: input.job_id } : { minDays: 30 }), settings: await readSettings(tx), today }
  })
  if (input.job_id && !rows.length) {
    throw new AppError('conflict', 'This job has no overdue invoice, so there is nothing to recover. invoicing.chase lists overdue invoices.', { job_id: input.job_id })
  }
  const state = input.state ?? settings.state
  const forum = state ? SMALL_CLAIMS[state]! : null
  const invoices = rows.map((r) => {
    const balance = Number(r.balance_cents)
    const options: { option: string; summary: string; steps: string[]; details?: Record<string, unknown> }[] = [
      {
        option: 'payment_plan',
        summary: `Offer to take ${money(balance)} in instalments: often the quickest way to be paid by a client who cannot pay at once.`,
        steps: ['Call or message the client and propose the plan below.', 'Confirm the agreed plan in writing (email), with what happens if an instalment is missed.', 'Record each instalment as it arrives (POST /api/v1/invoices/{id}/payments).'],
        details: { instalments: paymentPlan(balance, today) },
      },
      {
        option: 'final_notice',
        summary: 'Send a final notice, then a letter of demand: many debts are paid at this step.',
        steps: [
          `Send the final reminder (invoicing.chase with jobId and tone final)${r.last_tone === 'final' ? '; one was already sent' : ''}.`,
          `If still unpaid after 7 days, send a letter of demand: invoice ${r.invoice_number}, ${money(balance)} owing since ${r.due_date}, payment within 14 days, and that you will otherwise start proceedings without further notice.`,
          'Keep copies of the invoice, the reminders and any replies: they are your evidence.',
        ],
      },
      forum
        ? {
          option: 'small_claims',
          summary: forum.limitCents === null
            ? `${state}: ${forum.forum}. ${forum.note}`
            : balance <= forum.limitCents
              ? `${state}: ${forum.forum} hears claims up to ${money(forum.limitCents)}; ${money(balance)} is within it.`
              : `${state}: ${forum.forum} hears claims up to ${money(forum.limitCents)}; ${money(balance)} is above it, so a higher court or a lawyer applies.`,
          steps: ['Check the forum\'s current limit and filing fee on its website before filing.', 'File the claim with the invoice, the quote or contract, and the reminders and letter of demand.', 'Attend any mediation or hearing; a judgment can then be enforced.'],
          details: { forum: forum.forum, limit: forum.limitCents === null ? null : centsToDollars(forum.limitCents), note: forum.note, source: forum.source, as_of: SHEET },
        }
        : {
          option: 'small_claims',
          summary: 'Every state has a small or minor claims forum; give state (or set it in the invoicing settings) to see yours and its limit.',
          steps: ['Set your state, then ask again.'],
        },
      {
        option: 'security_of_payment',
        summary: state
          ? `For construction work under a construction contract, the ${SECURITY_OF_PAYMENT_ACTS[state]} gives a fast statutory route: payment claim, payment schedule, adjudication.`
          : 'For construction work under a construction contract, each state\'s security-of-payment act gives a fast statutory route: payment claim, payment schedule, adjudication.',
        steps: [
          'Serve a payment claim (invoicing.generate progress_claim with payment_claim: true adds the statement).',
          'In NSW the client must answer with a payment schedule within 10 business days; without one the full claimed amount may become recoverable.',
          'If it is disputed, apply for adjudication through an authorised nominating authority.',
        ],
        details: { source: SOP_SOURCE.source, as_of: SOP_SOURCE.asOf },
      },
    ]
    return { invoiceNumber: r.invoice_number, clientName: r.client_name, balance: centsToDollars(balance), daysOverdue: r.days_overdue, options }
  })
  return {
    invoices,
    state: state ?? null,
    sources: [
      ...Object.entries(SMALL_CLAIMS).filter(([s]) => !state || s === state).map(([s, f]) => ({ fact: `${s} small claims: ${f.forum}${f.limitCents ? ` up to ${money(f.limitCents)}` : ''}`, source: f.source, asOf: SHEET })),
      { fact: 'Security of payment: NSW payment schedule within 10 business days', source: 'fairtrading.nsw.gov.au; adjudicate.com.au', asOf: SHEET },
    ],
    advice_only: true as const,
    note: 'General information, not legal advice; nothing has been sent or filed. Limits and fees change: check the forum before filing.',
  }
}
