// The job-flow automations: scheduling a job on the next business day, invoicing a completed job,
// carrying an accepted quote to payment, and processing a lead. Their tools, activities and
// workflow definitions, registered by the domain (index.ts).
import type { Deps } from '../../../core/deps.js'
import { invoiceCompletedJob, sendInvoiceFirstTime } from './invoice-job.js'
import { createLeadFollowUp, prioritiseLead, processLeadDefinition, processLeadOperation, startLeadInstantResponse } from './process-lead.js'
import { ensureQuoteJob, jobStatusNow, quoteToInvoiceDefinition, quoteToInvoiceOperation } from './quote-to-invoice.js'
import { bookNextBusinessDay, scheduleJobDefinition, scheduleJobOperation } from './schedule-job.js'
import { triggerInvoiceDefinition, triggerInvoiceOperation } from './trigger-invoice.js'

export const jobFlowOperations = [scheduleJobOperation, triggerInvoiceOperation, quoteToInvoiceOperation, processLeadOperation]

export const jobFlowWorkflows = [scheduleJobDefinition, triggerInvoiceDefinition, quoteToInvoiceDefinition, processLeadDefinition]

type Arg<F extends (deps: Deps, input: never) => unknown> = Parameters<F>[1]

export function jobFlowActivities(deps: Deps) {
  return {
    bookNextBusinessDay: (input: Arg<typeof bookNextBusinessDay>) => bookNextBusinessDay(deps, input),
    invoiceCompletedJob: (input: Arg<typeof invoiceCompletedJob>) => invoiceCompletedJob(deps, input),
    sendInvoiceFirstTime: (input: Arg<typeof sendInvoiceFirstTime>) => sendInvoiceFirstTime(deps, input),
    ensureQuoteJob: (input: Arg<typeof ensureQuoteJob>) => ensureQuoteJob(deps, input),
    jobStatusNow: (input: Arg<typeof jobStatusNow>) => jobStatusNow(deps, input),
    prioritiseLead: (input: Arg<typeof prioritiseLead>) => prioritiseLead(deps, input),
    createLeadFollowUp: (input: Arg<typeof createLeadFollowUp>) => createLeadFollowUp(deps, input),
    startLeadInstantResponse: (input: Arg<typeof startLeadInstantResponse>) => startLeadInstantResponse(deps, input),
  }
}
