// The client-facing automations: review booster, referral offers and upsell suggestions. Their
// tools, activities and workflow definitions, and their reactions: jobs.complete's completion
// (job.completion_recorded) queues the review booster and the referral offer in its transaction
// (write-then-start); a new lead with source referral:<CODE> is tracked to the code (lead.created).
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import type { StartAfterCommit } from '../../../temporal/outbox.js'
import type { JobCompletionRecorded } from '../../jobs/events.js'
import { defineFeature } from '../engine/catalogue.js'
import { referralProgramAutomation, reviewBoosterAutomation } from './automation.js'
import { planReferralOffer, referralOfferDefinition, startReferralOffer, trackReferral } from './referral-program.js'
import { referralProgramOperation } from './referral-program-tool.js'
import { planReviewStep, reviewBoosterDefinition, sendReviewStep, startReviewBooster } from './review-booster.js'
import { reviewBoosterOperation } from './review-booster-tool.js'
import { upsellSuggestOperation } from './upsell-suggest.js'

function clientAutomationActivities(deps: Deps) {
  return {
    planReviewStep: (input: Parameters<typeof planReviewStep>[1]) => planReviewStep(deps, input),
    sendReviewStep: (input: Parameters<typeof sendReviewStep>[1]) => sendReviewStep(deps, input),
    planReferralOffer: (input: Parameters<typeof planReferralOffer>[1]) => planReferralOffer(deps, input),
  }
}

/** jobs.complete, in its transaction: the review booster (when on) and, for 5 stars, the referral offer (when on). */
async function startCompletionAutomations(
  deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit, job: { companyId: string; jobId: string; rating: number | null },
): Promise<void> {
  await startReviewBooster(deps, tx, start, { companyId: job.companyId, jobId: job.jobId }, { automatic: true })
  await startReferralOffer(deps, tx, start, job)
}

export const clientOutreachFeature = defineFeature({
  name: 'client-outreach',
  automations: [reviewBoosterAutomation, referralProgramAutomation],
  operations: [reviewBoosterOperation, referralProgramOperation, upsellSuggestOperation],
  activities: clientAutomationActivities,
  workflows: [reviewBoosterDefinition, referralOfferDefinition],
  reactions: [
    {
      name: 'client-outreach: review booster and referral offer on completion',
      on: ['job.completion_recorded'],
      async inTransaction({ deps, tx, start, event }) {
        const job = event.payload as JobCompletionRecorded
        await startCompletionAutomations(deps, tx, start, { companyId: event.companyId, jobId: job.jobId, rating: job.rating })
      },
    },
    {
      name: 'client-outreach: track a referred lead',
      on: ['lead.created'],
      // source referral:<CODE> (workflows.referral_program)
      async inTransaction({ tx, event }) {
        const { lead } = event.payload as { lead: { id: string; source: string | null } }
        await trackReferral(tx, event.companyId, lead.id, lead.source, event.at)
      },
    },
  ],
})
