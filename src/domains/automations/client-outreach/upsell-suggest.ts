// workflows.upsell_suggest: follow-on work to offer a client, from their job history and the
// company's service catalogue. A pure read (no workflow, no message): the owner or agent decides
// what to offer. The rules, applied in this order, each suggestion once, at most 5:
//   1. maintenance after a repair: the client had a repair (a service or job whose name says
//      repair, fix, replace, leak, blocked, fault or burst) and the catalogue has a maintenance
//      service (service, maintenance, inspection, check, clean, plan) in the same category, or in
//      any category when that category has none or the repair is a job title with no catalogue
//      service (so no category), not yet done for them;
//   2. same category, not yet done: active services in a category the client has used;
//   3. popular with other clients: the company's most quoted active services not yet done.
// "Done for the client" means quoted on one of their jobs' quotes, or named as one of their jobs'
// titles. Prices are the catalogue's (AUD, ex GST per unit) with GST added for the incl. figure.
import type postgres from 'postgres'
import Type, { type Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { notFound, validationError } from '../../../core/errors.js'
import { READ } from '../../../core/annotations.js'
import { gstOnCents } from '../../../core/gst.js'
import { centsToDollars } from '../../../core/money.js'
import { defineOperation } from '../../../core/operation.js'
import { Dollars, Nullable, StringEnum } from '../../../core/schema-helpers.js'
import { withTenant } from '../../../db/sql.js'
import { closed, Id } from '../../shared-schema.js'
import { isUuid } from '../../../core/uuid.js'
import { findJobLead, findLeadName, listActiveServices, listAllServices, listClientJobs, listServicesQuotedToClient, type ServiceRow } from './queries.js'

const REPAIR = /\b(repair|repairs|fix|fixed|replace|replacement|leak|leaking|blocked|fault|faulty|burst)\b/i
const MAINTENANCE = /\b(service|servicing|maintenance|inspection|check|clean|cleaning|plan)\b/i
const MAX = 5


const Suggestion = Type.Object({
  service_id: Type.String(),
  name: Type.String(),
  category: Nullable(Type.String()),
  unit: Type.String({ description: 'What the price is per' }),
  price: Dollars('ex', { description: 'Catalogue price per unit' }),
  price_incl_gst: Dollars('incl', { description: 'The same with 10% GST' }),
  rule: StringEnum(['maintenance_after_repair', 'same_category', 'popular'] as const, { description: 'Which rule suggested it' }),
  reason: Type.String({ description: 'Why, in words' }),
})

const UpsellOutput = Type.Object({
  lead_id: Type.String({ description: 'The client the suggestions are for' }),
  client_name: Type.String(),
  based_on: Type.Object({
    jobs: Type.Integer({ minimum: 0, description: "The client's jobs considered (not Cancelled)" }),
    services_done: Type.Array(Type.String(), { description: 'Catalogue services already done or quoted on their jobs' }),
  }),
  suggestions: Type.Array(Suggestion, { description: 'At most 5, by rule order; empty when the catalogue has nothing new for them' }),
  note: Type.String(),
})

export async function suggestUpsell(deps: Deps, principal: Principal, input: { job_id?: string; lead_id?: string }): Promise<Static<typeof UpsellOutput>> {
  if (!input.job_id && !input.lead_id) throw validationError(['job_id: give job_id or lead_id'])
  return withTenant(deps.db, principal.companyId, async (tx) => {
    let leadId = input.lead_id
    if (input.job_id) {
      const job = isUuid(input.job_id) ? await findJobLead(tx, input.job_id) : undefined
      if (!job) throw notFound('Job')
      if (leadId && leadId !== job.lead_id) throw validationError(["lead_id: the job belongs to another client; give one of job_id or lead_id"])
      leadId = job.lead_id
    }
    const lead = isUuid(leadId!) ? await findLeadName(tx, leadId!) : undefined
    if (!lead) throw notFound('Lead')
    return suggestFor(tx, lead)
  })
}

async function suggestFor(tx: postgres.TransactionSql, lead: { id: string; name: string }): Promise<Static<typeof UpsellOutput>> {
  const jobs = await listClientJobs(tx, lead.id)
  const services = await listActiveServices(tx)
  const quotedForClient = await listServicesQuotedToClient(tx, lead.id)
  const titles = new Set(jobs.map((j) => j.title.trim().toLowerCase()))
  const allServices = await listAllServices(tx)
  const done = allServices.filter((s) => quotedForClient.some((q) => q.service_id === s.id) || titles.has(s.name.trim().toLowerCase()))
  const doneIds = new Set(done.map((s) => s.id))
  const categories = new Set(done.map((s) => s.category).filter((c): c is string => c !== null))
  // A job titled after a catalogue service is that service (with its category); other repair titles have no category.
  const doneNames = new Set(done.map((s) => s.name.trim().toLowerCase()))
  const repairs = [
    ...done.filter((s) => REPAIR.test(s.name)),
    ...jobs.filter((j) => REPAIR.test(j.title) && !doneNames.has(j.title.trim().toLowerCase())).map((j) => ({ name: j.title, category: null as string | null })),
  ]

  const out: Static<typeof Suggestion>[] = []
  const add = (s: ServiceRow, rule: Static<typeof Suggestion>['rule'], reason: string) => {
    if (out.length >= MAX || doneIds.has(s.id) || out.some((o) => o.service_id === s.id)) return
    const cents = Number(s.unit_price_cents)
    out.push({ service_id: s.id, name: s.name, category: s.category, unit: s.unit, price: centsToDollars(cents), price_incl_gst: centsToDollars(cents + gstOnCents(cents)), rule, reason })
  }
  const fresh = services.filter((s) => !doneIds.has(s.id))
  for (const repair of repairs) {
    const maintenance = fresh.filter((s) => MAINTENANCE.test(s.name) && !REPAIR.test(s.name))
    const sameCategory = maintenance.filter((s) => repair.category !== null && s.category === repair.category)
    for (const s of sameCategory.length ? sameCategory : maintenance) add(s, 'maintenance_after_repair', `Maintenance after the repair "${repair.name}"`)
  }
  for (const s of fresh) if (s.category && categories.has(s.category)) add(s, 'same_category', `Same category (${s.category}) as work already done for ${lead.name}; not done for them yet`)
  for (const s of [...fresh].sort((a, b) => b.quoted - a.quoted || a.name.localeCompare(b.name))) {
    if (s.quoted > 0) add(s, 'popular', `Often quoted to other clients (${s.quoted} time${s.quoted === 1 ? '' : 's'})`)
  }
  return {
    lead_id: lead.id, client_name: lead.name, based_on: { jobs: jobs.length, services_done: done.map((s) => s.name) }, suggestions: out,
    note: out.length
      ? 'Suggestions only: nothing was sent. Offer them with quotes.create (service_id on a line item) or a message.'
      : 'No suggestions: the catalogue has no active service this client has not had. Add services with services.create.',
  }
}

export const upsellSuggestOperation = defineOperation({
  name: 'workflows.upsell_suggest',
  domain: 'workflows',
  title: 'Upsell suggestions',
  description:
    "Suggest extra services to offer a client, from their job history and the service catalogue, each with its reason and catalogue price in AUD (ex and incl. GST). Rules, in order: maintenance after a repair; services in a category the client has used but not yet had; services often quoted to others. Give job_id (its client) or lead_id. Suggestions only: nothing is sent or changed.",
  input: Type.Object(
    {
      job_id: Type.Optional(Id('Job to base suggestions on (its client)')),
      lead_id: Type.Optional(Id('Client (lead) to base suggestions on')),
    },
    closed,
  ),
  output: UpsellOutput,
  access: { permission: 'read' },
  cost: 'read',
  annotations: READ,
  run: (ctx, input) => suggestUpsell(ctx.deps, ctx.principal!, input),
})
