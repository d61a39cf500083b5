// Catalogue of the spec's MCP tools whose domains are not built yet, in the order of the spec's
// tool table. Each answers not_implemented until its domain lands (see core/planned.ts).
import type { AnyOperation } from '../../core/operation.js'
import { analyticsPlannedTools } from './analytics.js'
import { cashflowPlannedTools } from './cashflow.js'
import { commsPlannedTools } from './comms.js'
import { compliancePlannedTools } from './compliance.js'
import { documentsPlannedTools } from './documents.js'
import { ecosystemPlannedTools } from './ecosystem.js'
import { formationPlannedTools } from './formation.js'
import { fundingPlannedTools } from './funding.js'
import { hiringPlannedTools } from './hiring.js'
import { integrationsPlannedTools } from './integrations.js'
import { invoicingPlannedTools } from './invoicing.js'
import { lifecyclePlannedTools } from './lifecycle.js'
import { marketingPlannedTools } from './marketing.js'
import { operatorPlannedTools } from './operator.js'
import { paymentsPlannedTools } from './payments.js'
import { pricebookPlannedTools } from './pricebook.js'
import { quotesPlannedTools } from './quotes.js'
import { remindersPlannedTools } from './reminders.js'
import { reviewsPlannedTools } from './reviews.js'
import { scalingPlannedTools } from './scaling.js'
import { subcontractorsPlannedTools } from './subcontractors.js'
import { walletPlannedTools } from './wallet.js'
import { webhooksPlannedTools } from './webhooks.js'
import { workflowsPlannedTools } from './workflows.js'

export const plannedTools: AnyOperation[] = [
  ...quotesPlannedTools,
  ...invoicingPlannedTools,
  ...cashflowPlannedTools,
  ...reviewsPlannedTools,
  ...analyticsPlannedTools,
  ...remindersPlannedTools,
  ...commsPlannedTools,
  ...ecosystemPlannedTools,
  ...webhooksPlannedTools,
  ...subcontractorsPlannedTools,
  ...compliancePlannedTools,
  ...marketingPlannedTools,
  ...pricebookPlannedTools,
  ...paymentsPlannedTools,
  ...formationPlannedTools,
  ...lifecyclePlannedTools,
  ...hiringPlannedTools,
  ...fundingPlannedTools,
  ...scalingPlannedTools,
  ...operatorPlannedTools,
  ...integrationsPlannedTools,
  ...walletPlannedTools,
  ...documentsPlannedTools,
  ...workflowsPlannedTools,
]
