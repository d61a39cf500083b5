// The long-running automations built on durable timers: quote follow-ups and the payment chase.
// Their tools, activities and workflow definitions, registered by the domain (index.ts).
import type { Deps } from '../../../core/deps.js'
import { chasePaymentOperation } from '../payment-chase/chase-payment-tool.js'
import { checkInvoiceChase, invoiceChaseDefinition, planInvoiceChaseStep } from '../payment-chase/chase-payment.js'
import { followUpQuoteOperation } from '../quote-follow-up/follow-up-quote-tool.js'
import { checkQuoteFollowUp, planQuoteFollowUp, quoteFollowUpDefinition } from '../quote-follow-up/follow-up-quote.js'
import { finishAutomationRun, recordAutomationStep, type RunFinishRecord, type RunStepRecord } from './run-progress.js'

export const longRunningOperations = [followUpQuoteOperation, chasePaymentOperation]

export const longRunningWorkflows = [quoteFollowUpDefinition, invoiceChaseDefinition]

export function longRunningActivities(deps: Deps) {
  return {
    checkQuoteFollowUp: (input: Parameters<typeof checkQuoteFollowUp>[1]) => checkQuoteFollowUp(deps, input),
    planQuoteFollowUp: (input: Parameters<typeof planQuoteFollowUp>[1]) => planQuoteFollowUp(deps, input),
    checkInvoiceChase: (input: Parameters<typeof checkInvoiceChase>[1]) => checkInvoiceChase(deps, input),
    planInvoiceChaseStep: (input: Parameters<typeof planInvoiceChaseStep>[1]) => planInvoiceChaseStep(deps, input),
    recordAutomationStep: (input: RunStepRecord) => recordAutomationStep(deps, input),
    finishAutomationRun: (input: RunFinishRecord) => finishAutomationRun(deps, input),
  }
}
