// The hiring tools' entry points: read the company's date, state and trade (and its work for the
// scored tools) under its tenant, then compute from the facts. Nothing is written.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { companyToday } from '../../core/company-time.js'
import { withTenant } from '../../db/sql.js'
import { apprenticeWorkflow } from './apprentice.js'
import { analyseCapacity, readCapacityData } from './capacity.js'
import { complianceChecklist } from './compliance.js'
import { calculateCost, type CostContext } from './cost.js'
import { findHiringCompany } from './queries.js'
import { assessReadiness } from './readiness.js'
import type { ApprenticeInput, CapacityInput, ComplianceInput, CostInput, ReadinessInput } from './schema.js'

async function context(deps: Deps, principal: Principal): Promise<CostContext> {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const company = await findHiringCompany(tx)
    return { today: await companyToday(tx, deps.clock.now()), companyState: company.state, companyTrade: company.trade_type }
  })
}

export const hiringService = {
  capacity: async (deps: Deps, principal: Principal, input: Static<typeof CapacityInput>) =>
    analyseCapacity(input, await readCapacityData(deps, principal, input.weeks ?? 12)),
  readiness: async (deps: Deps, principal: Principal, input: Static<typeof ReadinessInput>) =>
    assessReadiness(input, await readCapacityData(deps, principal, 12), await context(deps, principal)),
  cost: async (deps: Deps, principal: Principal, input: Static<typeof CostInput>) => calculateCost(input, await context(deps, principal)),
  apprentice: async (deps: Deps, principal: Principal, input: Static<typeof ApprenticeInput>) => apprenticeWorkflow(input, await context(deps, principal)),
  compliance: async (deps: Deps, principal: Principal, input: Static<typeof ComplianceInput>) => complianceChecklist(input, await context(deps, principal)),
}
