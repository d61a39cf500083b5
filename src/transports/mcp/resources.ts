// MCP resources (service://...). Each names the scope it needs and how to read it; those whose
// domain is not built yet say which capability will provide them.
import type { Scope, Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { listLeads } from '../../domains/leads/service.js'
import { getBilling, getUsage } from '../../domains/billing/service.js'
import { listQuotes } from '../../domains/quotes/service.js'
import { listJobs } from '../../domains/jobs/service.js'
import { listClients } from '../../domains/clients/service.js'
import { listServices } from '../../domains/services/service.js'

export interface McpResource {
  uri: string
  name: string
  description: string
  scope?: Scope
  read?: (deps: Deps, principal: Principal) => Promise<unknown>
  capability?: string
}

export const RESOURCES: McpResource[] = [
  {
    uri: 'service://leads', name: 'Leads', scope: 'leads',
    description: 'Leads with contact info, status and priority (newest 100, with the total).',
    read: (deps, principal) => listLeads(deps, principal, { limit: 100 }),
  },
  {
    uri: 'service://quotes', name: 'Quotes', scope: 'quotes', description: 'Quotes with line items, totals and the linked lead (newest 100, with the total).',
    read: (deps, principal) => listQuotes(deps, principal, { limit: 100 }),
  },
  {
    uri: 'service://jobs', name: 'Jobs', scope: 'jobs', description: 'Jobs with schedules, technicians and completion status (newest 100, with the total).',
    read: (deps, principal) => listJobs(deps, principal, { limit: 100 }),
  },
  {
    uri: 'service://clients', name: 'Clients', scope: 'clients', description: 'Clients (leads with jobs) with job counts, quote counts and revenue (newest 100).',
    read: (deps, principal) => listClients(deps, principal, { limit: 100 }, 'any_job'),
  },
  { uri: 'service://financials', name: 'Financials', scope: 'financials', description: 'Revenue, conversion rates and invoice status.', capability: 'Invoicing, payments and cash flow' },
  {
    uri: 'service://services', name: 'Service catalogue', scope: 'quotes', description: 'The service catalogue with AUD prices ex GST (newest 100).',
    read: (deps, principal) => listServices(deps, principal, { limit: 100 }),
  },
  { uri: 'service://reminders', name: 'Reminders', scope: 'leads', description: 'Reminders and follow-ups.', capability: 'Communications and reminders' },
  { uri: 'service://communications', name: 'Communications', scope: 'clients', description: 'SMS and email history with delivery status.', capability: 'Communications and reminders' },
  {
    uri: 'service://billing', name: 'Billing', description: 'Subscription, plan, feature access and this month\'s usage.',
    read: async (deps, principal) => ({ ...(await getBilling(deps, principal)), usage: (await getUsage(deps, principal)).usage }),
  },
]

export function describeResource(r: McpResource) {
  return { uri: r.uri, name: r.name, description: r.description, mimeType: 'application/json' }
}
