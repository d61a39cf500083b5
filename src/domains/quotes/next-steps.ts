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

/** A price suggestion goes to quotes.create (after leads.create when no lead was given), or says what data would give one. */
export function afterPriceSuggestion(output: { quote_input: { lead_id: string | null } | null }): NextStep[] {
  if (!output.quote_input) {
    return [
      { tool: 'services.create', why: 'Add your labour rate (unit "hour") and your usual charges, so the next suggestion can price this job.' },
      { tool: 'pricebook.import', why: "Import your supplier's price list with default_markup_percent, so matching items carry a sell price." },
    ]
  }
  const lead = output.quote_input.lead_id
  return steps(
    !lead && { tool: 'leads.create', why: 'quotes.create needs a lead: create the client as a lead, then put its id in quote_input.lead_id.' },
    { tool: 'quotes.create', why: `Pass quote_input (lead_id${lead ? ` ${lead}` : ''} and line_items), after removing or changing any line; it creates a Draft, nothing is sent.` },
  )
}
