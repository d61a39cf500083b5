// The client-facing automations: review booster, referral offers, upsell suggestions and the daily
// summary. Their tools, activities and workflow definitions, registered by the domain (index.ts),
// and the hook jobs.complete calls in its transaction (write-then-start).
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import type { StartAfterCommit } from '../../../temporal/outbox.js'
import { dailySummaryDefinition, dailySummaryOperation, planDailySummary } from '../daily-summary/daily-summary.js'
import { planReferralOffer, referralOfferDefinition, startReferralOffer } from './referral-program.js'
import { referralProgramOperation } from './referral-program-tool.js'
import { planReviewStep, reviewBoosterDefinition, sendReviewStep, startReviewBooster } from './review-booster.js'
import { reviewBoosterOperation } from './review-booster-tool.js'
import { upsellSuggestOperation } from './upsell-suggest.js'

export const clientAutomationOperations = [reviewBoosterOperation, referralProgramOperation, upsellSuggestOperation, dailySummaryOperation]

export const clientAutomationWorkflows = [reviewBoosterDefinition, referralOfferDefinition, dailySummaryDefinition]

export function clientAutomationActivities(deps: Deps) {
  return {
    planReviewStep: (input: Parameters<typeof planReviewStep>[1]) => planReviewStep(deps, input),
    sendReviewStep: (input: Parameters<typeof sendReviewStep>[1]) => sendReviewStep(deps, input),
    planReferralOffer: (input: Parameters<typeof planReferralOffer>[1]) => planReferralOffer(deps, input),
    planDailySummary: (input: Parameters<typeof planDailySummary>[1]) => planDailySummary(deps, input),
  }
}

/** jobs.complete, in its transaction: the review booster (when on) and, for 5 stars, the referral offer (when on). */
export async function startCompletionAutomations(
  deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit, job: { companyId: string; jobId: string; rating: number | null },
): Promise<void> {
  await startReviewBooster(deps, tx, start, { companyId: job.companyId, jobId: job.jobId }, { automatic: true })
  await startReferralOffer(deps, tx, start, job)
}
