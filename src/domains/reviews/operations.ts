import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ, SEND, WRITE } from '../../core/annotations.js'
import { EmptyInput } from '../../core/schema-helpers.js'
import { RequestReviewInput, RequestReviewResponse, ReviewPlatformsResponse, UpdateReviewSettingsInput } from './schema.js'
import { afterReviewRequest, afterReviewSettings } from './next-steps.js'
import { requestReview } from './request.js'
import { getReviewPlatforms, updateReviewSettings } from './settings.js'

export const reviewOperations = [
  defineOperation({
    name: 'reviews.request',
    domain: 'reviews',
    title: 'Request a review',
    description:
      "Ask the client of a completed job (job_id required; the job must be Completed) for a review by SMS and/or email, linking to the chosen review platform (default: the company's default, see reviews.platforms). Once per job: asking again answers with the earlier request and sends nothing, unless force is true. Ask every client regardless of sentiment: under ACCC guidance, review gating and undisclosed incentives are risky.",
    input: RequestReviewInput,
    output: RequestReviewResponse,
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    rest: { method: 'POST', path: '/reviews/requests', status: 200, feature: 'restWrite' },
    run: (ctx, input) => requestReview(ctx.deps, ctx.principal!, input),
    nextSteps: afterReviewRequest,
  }),
  defineOperation({
    name: 'reviews.platforms',
    domain: 'reviews',
    title: 'Review platforms',
    description:
      'List the review platforms review requests can link to (Google Business Profile, Facebook, hipages, ProductReview.com.au, Word of Mouth, Trustpilot, Yelp, TrueLocal, ServiceSeeking), showing which have a review link set up for the company and which is the default. Links are set with PATCH /api/v1/settings/reviews.',
    input: EmptyInput,
    output: ReviewPlatformsResponse,
    access: { scope: 'jobs', permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/reviews/platforms' },
    run: (ctx) => getReviewPlatforms(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'reviews.settings', domain: 'reviews', title: 'Review settings',
    description: 'The review link per platform and the default platform (the same as reviews.platforms).',
    input: EmptyInput, output: ReviewPlatformsResponse, access: { scope: 'jobs', permission: 'read' }, cost: 'read', annotations: READ, beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/settings/reviews' },
    run: (ctx) => getReviewPlatforms(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'reviews.update_settings', domain: 'reviews', title: 'Change review settings',
    description: "Set or remove (null) review links per platform (https pages on that platform's own site, e.g. g.page or google.com for google) and choose the default platform. Only what you give changes.",
    input: UpdateReviewSettingsInput, output: ReviewPlatformsResponse, access: { scope: 'jobs', permission: 'admin' }, cost: 'write',
    annotations: { ...WRITE, idempotentHint: true }, beyondSpec: AGENT_PARITY,
    rest: { method: 'PATCH', path: '/settings/reviews', status: 200, feature: 'restWrite' },
    run: (ctx, input) => updateReviewSettings(ctx.deps, ctx.principal!, input),
    nextSteps: afterReviewSettings,
  }),
]
