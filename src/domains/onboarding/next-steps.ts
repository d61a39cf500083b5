// What follows sign-up and a settings change (core/next-steps.ts): what later steps need that was
// not given (the state, which workflows.schedule_job refuses without; the time zone, Sydney unless
// given; a review link), then the first work: taking payments, a price list, the first lead.
import { steps, type NextStep } from '../../core/next-steps.js'
import { DEFAULT_TIME_ZONE } from '../../core/zoned-time.js'

const STATE_WHY = 'workflows.schedule_job needs it to skip public holidays'

interface OnboardResult { plan: { name: string; subscription: { status: string; trial_ends_at: string | null } } }
interface OnboardGiven { state?: string; time_zone?: string; review_link?: string }

export function afterOnboard(output: OnboardResult, input: OnboardGiven): NextStep[] {
  const missing = [
    !input.state && `state (${STATE_WHY})`,
    !input.time_zone && `time_zone if not ${DEFAULT_TIME_ZONE} (assumed)`,
  ].filter(Boolean)
  const sub = output.plan.subscription
  return steps(
    missing.length > 0 && { tool: 'company.update_profile', why: `With the api_key: set ${missing.join(' and ')}.` },
    { tool: 'payments.connect_account', why: 'Connect the payment account clients pay invoices through online.' },
    !input.review_link && { tool: 'reviews.update_settings', why: 'Set the review link that review requests send.' },
    { tool: 'services.create', why: 'Add priced services; quote lines take their name and price by service_id.' },
    { tool: 'leads.create', why: 'Record the first enquiry; a quote follows it.' },
    sub.status === 'trialing' && { tool: 'billing.create_checkout', why: `The ${output.plan.name} plan is a trial until ${sub.trial_ends_at}; this activates it.` },
  )
}

export function afterCompanySettings(output: { settings: { state: string | null } }): NextStep[] {
  if (output.settings.state) return []
  return [{ tool: 'onboarding.update_company_settings', why: `Set state too: ${STATE_WHY}.` }]
}
