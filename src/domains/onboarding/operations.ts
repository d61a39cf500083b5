import { defineOperation, type OperationContext } from '../../core/operation.js'
import { onePerApp, type Deps } from '../../core/deps.js'
import { FixedWindowCounter } from '../../core/fixed-window.js'
import { rateLimited, validationError } from '../../core/errors.js'
import { assertActivePlan } from '../billing/service.js'
import { isValidAbn, normaliseAbn } from './abn.js'
import { lookUpReferralCode } from '../ecosystem/referrals.js'
import { checkReviewUrl, platformOfUrl, REVIEW_SITES } from '../reviews/settings.js'
import { REVIEW_PLATFORMS } from '../shared-schema.js'
import { readOptionalAuPhone } from '../../core/phone.js'
import { OnboardInput, OnboardResponse } from './schema.js'
import { onboard } from './service.js'
import { afterOnboard } from './next-steps.js'

// One limiter per running app (tests build several apps with different limits).
const limiterOf = onePerApp((deps: Deps) => new FixedWindowCounter(deps.config.ONBOARD_LIMIT_PER_HOUR, 3_600_000))

function limitByAddress(ctx: OperationContext): void {
  const hit = limiterOf(ctx.deps).hit(ctx.clientIp)
  if (hit.allowed) return
  const retry = Math.max(1, Math.ceil(hit.msLeft / 1000))
  throw rateLimited(retry, `Too many sign-ups from this address. Try again in ${retry} seconds.`)
}

/** The review link and its platform (given, or told from the address), the same checks as PATCH /settings/reviews. */
function readReviewLink(url: string | undefined, platform: (typeof REVIEW_PLATFORMS)[number] | undefined, problems: string[]) {
  if (url === undefined) {
    if (platform !== undefined) problems.push('review_platform: give review_link as well (the https address of your review page on that platform)')
    return null
  }
  const problem = checkReviewUrl('review_link', url)
  if (problem) {
    problems.push(problem)
    return null
  }
  const found = platformOfUrl(url)
  if (!found) {
    problems.push(`review_link: must be a page on a review platform's own site (${REVIEW_SITES})`)
    return null
  }
  if (platform !== undefined && platform !== found) {
    problems.push(`review_platform: review_link is on ${found}'s site, not ${platform}'s; give a ${platform} link or leave review_platform out`)
    return null
  }
  return { platform: found, url }
}

export const onboardingOperations = [
  defineOperation({
    name: 'onboard',
    domain: 'onboarding',
    title: 'Create an account',
    description: 'Create a company, its owner user and an admin API key in one unauthenticated call. A paid plan without a payment method starts a 14-day trial. The api_key is returned once only.',
    input: OnboardInput,
    output: OnboardResponse,
    access: 'public',
    cost: 'free',
    mcp: false,
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
    rest: { method: 'POST', path: '/onboard', status: 201 },
    async precheck(ctx, raw) {
      limitByAddress(ctx)
      await assertActivePlan(ctx.deps, raw.plan)
    },
    async run(ctx, input) {
      // Checked before anything is created or charged; every problem is listed at once.
      const problems: string[] = []
      if (input.abn !== undefined && !isValidAbn(input.abn)) {
        problems.push('abn: is not a valid Australian Business Number (11 digits with a valid checksum)')
      }
      // The same rule as a lead's phone.
      const phone = readOptionalAuPhone(input.phone)
      if ('problem' in phone) problems.push(phone.problem)
      const review = readReviewLink(input.review_link, input.review_platform, problems)
      const abn = input.abn !== undefined && isValidAbn(input.abn) ? normaliseAbn(input.abn) : null
      const referral = input.referral_code === undefined ? null : await lookUpReferralCode(ctx.deps, input.referral_code, abn)
      if (referral?.referrerId === null && referral.reason === 'same_business') {
        problems.push(`referral_code: ${referral.code} is the code of a company with this same ABN, and a business cannot refer itself; leave referral_code out`)
      }
      if (problems.length) throw validationError(problems)
      return onboard(ctx.deps, { ...input, phone: 'e164' in phone ? phone.e164 ?? undefined : undefined }, review, referral)
    },
    nextSteps: afterOnboard,
  }),
]
