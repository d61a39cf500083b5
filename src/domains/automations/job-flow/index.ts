// The job-flow automations: scheduling a job on the next business day, invoicing a completed job,
// carrying an accepted quote to payment, and processing a lead. Their tools, activities and
// workflow definitions; a quote-to-invoice run looks again when its job changes (job.changed).
import type { Deps } from '../../../core/deps.js'
import type { JobChanged } from '../../jobs/events.js'
import { defineFeature } from '../engine/catalogue.js'
import { processLeadAutomation, quoteToInvoiceAutomation, scheduleJobAutomation, triggerInvoiceAutomation } from './automation.js'
import { nudgeQuoteToInvoice } from './quote-to-invoice-nudge.js'
import { invoiceCompletedJob, sendInvoiceFirstTime } from './invoice-job.js'
import { createLeadFollowUp, prioritiseLead, processLeadDefinition, processLeadOperation, startLeadInstantResponse } from './process-lead.js'
import { ensureQuoteJob, jobStatusNow, quoteToInvoiceDefinition, quoteToInvoiceOperation } from './quote-to-invoice.js'
import { bookNextBusinessDay, scheduleJobDefinition, scheduleJobOperation } from './schedule-job.js'
import { triggerInvoiceDefinition, triggerInvoiceOperation } from './trigger-invoice.js'

const jobFlowOperations = [scheduleJobOperation, triggerInvoiceOperation, quoteToInvoiceOperation, processLeadOperation]

const jobFlowWorkflows = [scheduleJobDefinition, triggerInvoiceDefinition, quoteToInvoiceDefinition, processLeadDefinition]

type Arg<F extends (deps: Deps, input: never) => unknown> = Parameters<F>[1]

function jobFlowActivities(deps: Deps) {
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

export const jobFlowFeature = defineFeature({
  name: 'job-flow',
  automations: [scheduleJobAutomation, triggerInvoiceAutomation, quoteToInvoiceAutomation, processLeadAutomation],
  operations: jobFlowOperations,
  activities: jobFlowActivities,
  workflows: jobFlowWorkflows,
  reactions: [{
    name: 'quote-to-invoice: look at the job again',
    on: ['job.changed'],
    afterCommit(deps, event) {
      nudgeQuoteToInvoice(deps, event.companyId, event.payload as JobChanged)
    },
  }],
})
