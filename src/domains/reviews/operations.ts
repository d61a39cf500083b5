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
      "Ask a Completed job's client for a review now, by SMS and/or email, linking to a review platform (default the company's; reviews.platforms). Once per job: asking again answers with the earlier request and sends nothing, unless force. Ask every client whatever their sentiment (ACCC: review gating and undisclosed incentives are risky). Use it for one job; jobs.complete request_review asks at completion, and workflows.review_booster asks every recent job not yet asked, with a reminder.",
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
      'List the review platforms requests can link to, which have a review link set up for the company and which is the default. Set links with reviews.update_settings.',
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
