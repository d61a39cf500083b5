// The one list of domains, in the spec's toolset order (onboarding and keys first). Everything else
// (registry, activities, the worker's workflows, MCP resources, GET /usage counts, toolsets, the
// event catalogue) is derived from it. Adding a domain: a folder with index.ts, and one line here.
import { composeDomains } from '../core/composition.js'
import type { AnyOperation } from '../core/operation.js'
import type { Registry } from '../core/registry.js'
import { onboardingDomain } from './onboarding/index.js'
import { companyDomain } from './company/index.js'
import { keysDomain } from './keys/index.js'
import { leadsDomain } from './leads/index.js'
import { quotesDomain } from './quotes/index.js'
import { jobsDomain } from './jobs/index.js'
import { invoicingDomain } from './invoicing/index.js'
import { cashflowDomain } from './cashflow/index.js'
import { reviewsDomain } from './reviews/index.js'
import { servicesDomain } from './services/index.js'
import { analyticsDomain } from './analytics/index.js'
import { remindersDomain } from './reminders/index.js'
import { commsDomain } from './comms/index.js'
import { clientsDomain } from './clients/index.js'
import { billingDomain } from './billing/index.js'
import { ecosystemDomain } from './ecosystem/index.js'
import { webhooksDomain } from './webhooks/index.js'
import { subcontractorsDomain } from './subcontractors/index.js'
import { complianceDomain } from './compliance/index.js'
import { marketingDomain } from './marketing/index.js'
import { pricebookDomain } from './pricebook/index.js'
import { paymentsDomain } from './payments/index.js'
import { formationDomain } from './formation/index.js'
import { lifecycleDomain } from './lifecycle/index.js'
import { hiringDomain } from './hiring/index.js'
import { fundingDomain } from './funding/index.js'
import { scalingDomain } from './scaling/index.js'
import { operatorDomain } from './operator/index.js'
import { integrationsDomain } from './integrations/index.js'
import { walletDomain } from './wallet/index.js'
import { documentsDomain } from './documents/index.js'
import { opsDomain } from './ops/index.js'
import { automationsDomain } from './automations/index.js'

export const DOMAINS = [
  onboardingDomain,
  companyDomain,
  keysDomain,
  leadsDomain,
  quotesDomain,
  jobsDomain,
  invoicingDomain,
  cashflowDomain,
  reviewsDomain,
  servicesDomain,
  analyticsDomain,
  remindersDomain,
  commsDomain,
  clientsDomain,
  billingDomain,
  ecosystemDomain,
  webhooksDomain,
  subcontractorsDomain,
  complianceDomain,
  marketingDomain,
  pricebookDomain,
  paymentsDomain,
  formationDomain,
  lifecycleDomain,
  hiringDomain,
  fundingDomain,
  scalingDomain,
  operatorDomain,
  integrationsDomain,
  walletDomain,
  documentsDomain,
  automationsDomain,
  opsDomain,
] as const

export const composition = composeDomains(DOMAINS)

/** The catalogue, plus operations registered only in a test app (probes). */
export function createRegistry(extra: AnyOperation[] = []): Registry {
  return composition.registry.with(extra)
}
