// The company's review platforms: a link per platform and which one requests use by default.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { validationError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { REVIEW_PLATFORMS } from '../shared-schema.js'
import { PLATFORM_NAMES, type ReviewPlatform, type UpdateReviewSettingsInput } from './schema.js'
import { clearDefaultReviewLink, deleteReviewLink, listReviewLinkRows, setDefaultReviewLink, upsertReviewLink } from './queries.js'

export const CONFIGURE_HINT = 'Set review links with PATCH /api/v1/settings/reviews, e.g. {"links": {"google": "https://g.page/r/..."}, "default_platform": "google"}.'

export interface ReviewLinks {
  links: Map<ReviewPlatform, string>
  /** The chosen default when it has a link, otherwise the first platform (in list order) that has one. */
  defaultPlatform: ReviewPlatform | null
}

export async function readReviewLinks(tx: postgres.TransactionSql): Promise<ReviewLinks> {
  const rows = await listReviewLinkRows(tx)
  const links = new Map(rows.map((r) => [r.platform, r.url]))
  const chosen = rows.find((r) => r.is_default)?.platform
  return { links, defaultPlatform: chosen ?? REVIEW_PLATFORMS.find((p) => links.has(p)) ?? null }
}

export function presentPlatforms(state: ReviewLinks) {
  return {
    platforms: REVIEW_PLATFORMS.map((platform) => ({
      platform, name: PLATFORM_NAMES[platform], url: state.links.get(platform) ?? null,
      configured: state.links.has(platform), is_default: platform === state.defaultPlatform,
    })),
    default_platform: state.defaultPlatform,
    configure: CONFIGURE_HINT,
  }
}

export async function getReviewPlatforms(deps: Deps, principal: Principal) {
  return presentPlatforms(await withTenant(deps.db, principal.companyId, readReviewLinks))
}

/** A review page must be a real https address on a public-looking host (no credentials in it); the problem names `field`. */
export function checkReviewUrl(field: string, url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return `${field}: is not a URL`
  }
  if (parsed.protocol !== 'https:') return `${field}: must be an https URL`
  if (!parsed.hostname.includes('.') || parsed.username || parsed.password) return `${field}: must be an https URL on a public host, without a user name or password`
  return null
}

// Where each platform's review pages live, so one link given at sign-up finds its platform.
const PLATFORM_HOSTS: Record<ReviewPlatform, string[]> = {
  google: ['g.page', 'google.com', 'google.com.au', 'goo.gl'],
  facebook: ['facebook.com', 'fb.com', 'fb.me'],
  hipages: ['hipages.com.au'],
  productreview: ['productreview.com.au'],
  wordofmouth: ['wordofmouth.com.au'],
  trustpilot: ['trustpilot.com'],
  yelp: ['yelp.com', 'yelp.com.au'],
  truelocal: ['truelocal.com.au'],
  serviceseeking: ['serviceseeking.com.au'],
}

/**
 * A review link for a named platform: an https URL (checkReviewUrl) on that platform's own site, so a
 * Google link set under facebook, or a look-alike host, is refused before a client is sent to it.
 */
export function checkReviewLink(field: string, url: string, platform: ReviewPlatform): string | null {
  const problem = checkReviewUrl(field, url)
  if (problem) return problem
  return platformOfUrl(url) === platform ? null : `${field}: must be a page on ${platform}'s own site (${PLATFORM_HOSTS[platform].join(', ')})`
}

/** Every platform's sites, for a message saying where review links can be. */
export const REVIEW_SITES = REVIEW_PLATFORMS.map((p) => `${p}: ${PLATFORM_HOSTS[p].join(', ')}`).join('; ')

/** The platform whose site a review link is on, or null when the host is none of theirs. */
export function platformOfUrl(url: string): ReviewPlatform | null {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return null
  }
  return REVIEW_PLATFORMS.find((p) => PLATFORM_HOSTS[p].some((d) => host === d || host.endsWith(`.${d}`))) ?? null
}

/** Sets the platform's link and makes it the default, as PATCH /settings/reviews with both does (onboarding). */
export async function storeDefaultReviewLink(tx: postgres.TransactionSql, companyId: string, platform: ReviewPlatform, url: string, now: Date): Promise<void> {
  await upsertReviewLink(tx, companyId, platform, url, now)
  await clearDefaultReviewLink(tx)
  await setDefaultReviewLink(tx, platform, now)
}

export async function updateReviewSettings(deps: Deps, principal: Principal, input: Static<typeof UpdateReviewSettingsInput>) {
  const changes = Object.entries(input.links ?? {}) as [ReviewPlatform, string | null | undefined][]
  const problems = changes.flatMap(([platform, url]) => (typeof url === 'string' ? [checkReviewLink(`links.${platform}`, url, platform)] : [])).filter((p): p is string => p !== null)
  if (problems.length) throw validationError(problems)
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    for (const [platform, url] of changes) {
      if (url === null) await deleteReviewLink(tx, platform)
      else if (typeof url === 'string') {
        await upsertReviewLink(tx, principal.companyId, platform, url, now)
      }
    }
    if (input.default_platform !== undefined) {
      await clearDefaultReviewLink(tx)
      if (input.default_platform !== null) {
        if (!(await setDefaultReviewLink(tx, input.default_platform, now))) throw validationError([`default_platform: ${input.default_platform} has no review link; give links.${input.default_platform} as well`])
      }
    }
    return presentPlatforms(await readReviewLinks(tx))
  })
}
