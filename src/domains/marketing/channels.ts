// Which marketing channel a lead source belongs to, and which channels suit which goals. Rules, not
// figures: the company's own lead history then promotes or demotes a channel (strategy-advice.ts).
import type { MarketingChannel } from './schema.js'

const SOURCE_CHANNELS: [RegExp, MarketingChannel][] = [
  [/google.?ads|adwords|local.?services|\blsa\b|ppc|search.?ads|bing/, 'local_search_ads'],
  [/google|gbp|maps|business.?profile/, 'google_business_profile'],
  [/hipages|oneflare|serviceseeking|airtasker|service\.com\.au|bark|marketplace/, 'marketplaces'],
  [/referr|word.?of.?mouth/, 'referrals'],
  [/facebook|instagram|social|tiktok|linkedin|nextdoor/, 'social_media'],
  [/review|productreview|trustpilot|yelp|truelocal/, 'reviews'],
  [/repeat|past.?client|newsletter|existing/, 'past_clients'],
  [/tender|commercial|builder|strata|property.?manager/, 'commercial_outreach'],
]

export function channelOfSource(source: string): MarketingChannel | null {
  return SOURCE_CHANNELS.find(([re]) => re.test(source))?.[1] ?? null
}

/** Channels that cost money (ads, marketplace leads); the rest cost time. */
export const PAID_CHANNELS: ReadonlySet<MarketingChannel> = new Set(['local_search_ads', 'marketplaces', 'social_media'])

export type Priority = 'primary' | 'secondary' | 'test'

export const GOAL_CHANNELS: Record<string, [MarketingChannel, Priority][]> = {
  more_leads: [['google_business_profile', 'primary'], ['local_search_ads', 'secondary'], ['marketplaces', 'test']],
  higher_value_jobs: [['google_business_profile', 'primary'], ['referrals', 'secondary'], ['local_search_ads', 'test']],
  more_reviews: [['reviews', 'primary'], ['google_business_profile', 'primary']],
  repeat_business: [['past_clients', 'primary'], ['referrals', 'secondary']],
  commercial_work: [['commercial_outreach', 'primary'], ['google_business_profile', 'secondary']],
}

export const CHANNEL_WHY: Record<MarketingChannel, string> = {
  google_business_profile: 'Local searchers for a trade see the Google Business Profile first (map results, reviews, photos); it costs time, not money.',
  reviews: 'Reviews on Google and the trade marketplaces decide who gets the call; reviews.request asks after every completed job.',
  referrals: 'Referred clients arrive already trusting you; workflows.referral_program gives each client a code to pass on.',
  local_search_ads: 'Search ads reach people searching for the job right now in your area; spend is capped and measurable by lead source.',
  marketplaces: 'Marketplaces such as hipages and ServiceSeeking sell leads for the trade; they suit filling the diary, and each lead is paid for.',
  social_media: 'Local community groups and before-and-after photos keep the business in mind; paid posts can target the service area.',
  past_clients: 'Past clients are the cheapest work to win again: service reminders and seasonal checks by SMS or email (with consent and an opt-out).',
  commercial_outreach: 'Commercial work comes from builders, strata and property managers: a capability statement and direct contact, not ads.',
}

/** What to do for a channel in each 30-day phase, {trade} and {area} filled in. */
export const CHANNEL_ACTIONS: Record<MarketingChannel, [string, string, string]> = {
  google_business_profile: [
    'Complete the Google Business Profile: {trade} categories, the {area} service area, hours, phone, photos of recent work.',
    'Post one update a week (marketing.generate_content google_business_post) and answer every review.',
    'Compare calls and website clicks in the profile\'s insights with the leads recorded as source google.',
  ],
  reviews: [
    'Switch on review requests after every completed job (reviews.request, workflows.review_booster), asking every client, whatever the job\'s outcome.',
    'Reply to every review, good or bad (marketing.generate_content review_reply).',
    'Check which platforms the reviews land on (reviews.platforms) and set the default link to the one clients use.',
  ],
  referrals: [
    'Give past clients their referral code (workflows.referral_program) and record referred leads as source referral:<code>.',
    'Thank each referrer; mention the program in invoices and follow-ups.',
    'Compare referral leads\' win rate with the other sources in marketing.strategy.',
  ],
  local_search_ads: [
    'Start a search campaign limited to the {area} service area and the {trade} jobs you want most; record these leads as source google_ads.',
    'Cut search terms that bring no jobs; keep the budget capped.',
    'Compare the cost per won job with the other sources before raising the spend.',
  ],
  marketplaces: [
    'List on one marketplace (hipages or ServiceSeeking) for {trade} in {area}; record its leads as source hipages or serviceseeking.',
    'Answer marketplace leads within minutes (workflows.instant_response) and quote fast.',
    'Keep the marketplace only if its won work pays for its lead fees.',
  ],
  social_media: [
    'Post before-and-after photos of {trade} jobs in {area} local groups and pages.',
    'Post weekly (marketing.generate_content social_post); boost the best post to the service area only if the budget allows.',
    'Count leads recorded as source facebook or instagram and their wins.',
  ],
  past_clients: [
    'List past clients who agreed to hear from you; plan a seasonal service reminder.',
    'Send it by email or SMS with the business named and an opt-out (marketing.generate_content email_newsletter or sms_promo, then comms.send_email / comms.send_sms).',
    'Follow up open quotes (workflows.follow_up_quote) and suggest related work (workflows.upsell_suggest).',
  ],
  commercial_outreach: [
    'Write a one-page capability statement: licences, insurance, {trade} work done, {area} coverage.',
    'Contact builders, strata managers and property managers in {area}; record their leads as source commercial.',
    'Track quotes sent and won for commercial leads and keep the contacts warm monthly.',
  ],
}
