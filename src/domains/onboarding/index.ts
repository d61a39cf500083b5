import { defineDomain } from '../../core/domain.js'
import { onboardingOperations } from './operations.js'
import { CompanySettingsChanged, companySettingsOperations } from './company-settings.js'

export const onboardingDomain = defineDomain({
  name: 'onboarding',
  description: 'Programmatic sign-up: a company, its owner and an admin API key in one call (REST only).',
  operations: [...onboardingOperations, ...companySettingsOperations],
  internalEvents: [CompanySettingsChanged],
  usageCounts: { users: 'select count(*)::int from users' },
})
