// What follows each workflows.* write (core/next-steps.ts). A run that sends later is watched in
// workflows.list; with approval on, its messages wait in workflows.pending_actions; a dry run's one
// step is the real call.
import { realCallStep, steps, type NextStep } from '../../../core/next-steps.js'

interface DryRunResult { dry_run: boolean }

const watchRuns = (what: string): NextStep => ({ tool: 'workflows.list', why: `See ${what} and each run's outcome.` })
const approvals = (needsApproval: boolean): NextStep | false =>
  needsApproval && { tool: 'workflows.pending_actions', why: 'Its messages wait there for approval (workflows.approve_action sends one).' }

/** A tool whose dry run shows messages: the real call after it, else what `then` says. */
export const afterDryRunOr = <O extends DryRunResult, I>(tool: string, then: (output: O, input: I) => NextStep[]) =>
  (output: O, input: I): NextStep[] => (output.dry_run ? [realCallStep(tool)] : then(output, input))

export const afterInstantResponse = afterDryRunOr('workflows.instant_response', (_o: DryRunResult, input: { lead_id: string }) => [
  { tool: 'quotes.create', why: `Quote the work once you know it (lead_id ${input.lead_id}).` },
])

export const afterProcessLead = afterDryRunOr('workflows.process_lead', (_o: DryRunResult, input: { lead_id: string }) => [
  { tool: 'quotes.create', why: `Quote the work (lead_id ${input.lead_id}); the reminder it booked prompts a follow-up if you do not.` },
])

export const afterFollowUpQuote = afterDryRunOr('workflows.follow_up_quote', (o: DryRunResult & { started: unknown[] }) =>
  steps(o.started.length > 0 && watchRuns('the follow-ups booked')))

export const afterChasePayment = afterDryRunOr('workflows.chase_payment', (o: DryRunResult & { started: unknown[]; existing: unknown[] }) =>
  steps(
    (o.started.length > 0 || o.existing.length > 0) && watchRuns('the reminders sent'),
    (o.started.length > 0 || o.existing.length > 0) && { tool: 'invoicing.record_payment', why: 'Money paid by bank transfer or cash: record it, and that invoice\'s chase stops.' },
  ))

export const afterReviewBooster = afterDryRunOr('workflows.review_booster', (o: DryRunResult & { requested: unknown[]; needs_approval: boolean }) =>
  steps(o.requested.length > 0 && (approvals(o.needs_approval) || watchRuns('the requests sent'))))

export const afterTriggerInvoice = afterDryRunOr('workflows.trigger_invoice', (o: DryRunResult & { invoice: { id: string; invoice_number: string; status: string } | null }) =>
  steps(o.invoice !== null && o.invoice.status !== 'Paid' && { tool: 'invoicing.get', why: `Check ${o.invoice.invoice_number} for payment (id ${o.invoice.id}); the payment chase reminds the client until it is paid.` }))

export const afterQuoteToInvoice = afterDryRunOr('workflows.quote_to_invoice', (o: DryRunResult & { status: string; job_id: string | null }) =>
  steps(o.status === 'running' && o.job_id !== null && { tool: 'jobs.complete', why: `When the work is done (job_id ${o.job_id}; schedule it first with jobs.update): the run then invoices it and sends the payment link.` },
    o.status === 'running' && !o.job_id && watchRuns('the job the run makes')))

export function afterScheduleJob(o: { status: string; job_id: string }): NextStep[] {
  if (o.status === 'running') return [watchRuns('the booking')]
  if (o.status !== 'completed') return []
  return [
    { tool: 'jobs.send_eta', why: 'On the day: tell the client the technician is on the way.' },
    { tool: 'jobs.complete', why: `When the work is done: job_id ${o.job_id}.` },
  ]
}

export function afterToggle(o: { workflow: { enabled: boolean; requireApproval: boolean; title: string } }): NextStep[] {
  return steps(o.workflow.enabled && approvals(o.workflow.requireApproval), { tool: 'workflows.list', why: `See ${o.workflow.title}'s settings and latest runs.` })
}

export const afterApproveAction = afterDryRunOr('workflows.approve_action', () => [
  { tool: 'workflows.pending_actions', why: 'Any other actions still waiting for a decision.' },
])

export function afterRejectAction(): NextStep[] {
  return [{ tool: 'workflows.pending_actions', why: 'Any other actions still waiting for a decision.' }]
}

export function afterReferralProgram(o: { codes: unknown[] }): NextStep[] {
  return steps(o.codes.length > 0 && { tool: 'leads.create', why: 'When someone comes with a code, create their lead with source referral:<CODE> so it counts for the client who referred them.' })
}

export function afterAdSpend(): NextStep[] {
  return [{ tool: 'workflows.search_ads_pipeline', why: 'See cost per lead and return by source once spend and leads are both in.' }]
}
