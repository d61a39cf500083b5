// What follows each quote change (core/next-steps.ts): a Draft is sent, a sent quote waits for the
// client, an accepted one goes on to its job (opened on acceptance when the company keeps that on).
import { realCallStep, steps, type NextStep } from '../../core/next-steps.js'

interface QuoteView { id: string; quoteNumber: string; status: string; job_id: string | null; deposit: { amount: number } | null }

function forStatus(quote: QuoteView): NextStep[] {
  switch (quote.status) {
    case 'Draft':
      return [{ tool: 'quotes.send', why: `Send ${quote.quoteNumber} to the client (quote_id ${quote.id}); dry_run: true shows the SMS and email first.` }]
    case 'Sent':
    case 'Viewed':
      return [{
        tool: 'quotes.list',
        why: `Wait for the client to answer on the quote page; quotes.list shows ${quote.quoteNumber} Accepted or Declined (or subscribe to quote.accepted with webhooks.subscribe).${quote.deposit ? ` Accepting issues the deposit invoice ($${quote.deposit.amount.toFixed(2)})` : ' Accepting'} and opens the job.`,
      }]
    case 'Accepted':
      return quote.job_id
        ? [{ tool: 'jobs.update', why: `Schedule the job opened on acceptance: job_id ${quote.job_id} with scheduled_date (or workflows.schedule_job for the next business day).` }]
        : [{ tool: 'jobs.create', why: `Make the job: lead and quote_id ${quote.id} (create_job_on_acceptance is off for this company).` }]
    case 'Expired':
      return [{ tool: 'quotes.update', why: `Give ${quote.quoteNumber} a later valid_until and send it again, or create a new quote.` }]
    default:
      return []
  }
}

export function afterQuoteChange(output: { quote: QuoteView }): NextStep[] {
  return forStatus(output.quote)
}

export function afterQuoteSend(output: { quote: QuoteView; dry_run: boolean; follow_ups: { at: string[] } | null }): NextStep[] {
  if (output.dry_run) return [realCallStep('quotes.send')]
  return steps(
    ...forStatus(output.quote),
    output.follow_ups && output.follow_ups.at.length > 0 && { tool: 'workflows.list', why: `${output.follow_ups.at.length} follow-up message(s) are booked until the client answers; they stop on acceptance. workflows.toggle quote_follow_up turns them off.` },
  )
}
