import type { AnyOperation } from '../../core/operation.js'
import { defineOperation } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { afterApprentice, afterCapacity, afterCompliance, afterCost, afterReadiness } from './next-steps.js'
import {
  ApprenticeInput, ApprenticeResponse, CapacityInput, CapacityResponse, ComplianceInput, ComplianceResponse, CostInput, CostResponse, ReadinessInput, ReadinessResponse,
} from './schema.js'
import { hiringService } from './service.js'

const access = { permission: 'read' } as const
const CITED = 'Figures cite dated facts (source, as-of, whether in force on the company\'s date); general information, not advice.'

export const hiringOperations: AnyOperation[] = [
  defineOperation({
    name: 'hiring.capacity_analysis',
    domain: 'hiring',
    title: 'Team capacity analysis',
    description:
      "Score from 0 to 100 how fully the team's capacity is used, from the company's own jobs (booked hours), scheduled work ahead, open leads, quote win rate and leads turned away, factor by factor with each weight and input, and say whether another person is needed. " +
      'Jobs record no hours: pass hours_per_job, else one working day per job is assumed (the result says which inputs were assumed). ' + CITED,
    input: CapacityInput,
    output: CapacityResponse,
    access,
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/hiring/capacity-analysis' },
    run: (ctx, input) => hiringService.capacity(ctx.deps, ctx.principal!, input),
    nextSteps: (out) => afterCapacity(out),
  }),
  defineOperation({
    name: 'hiring.readiness_score',
    domain: 'hiring',
    title: 'Hiring readiness score',
    description:
      'Score from 0 to 100 how ready the business is to employ its first or next person: workload (the capacity analysis of its jobs, leads and quotes), cash reserves against a quarter of the role\'s full cost, work in sight, and employer registrations (PAYG withholding, Single Touch Payroll, super, workers\' compensation), factor by factor, with the gaps to close. ' + CITED,
    input: ReadinessInput,
    output: ReadinessResponse,
    access,
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/hiring/readiness-score' },
    run: (ctx, input) => hiringService.readiness(ctx.deps, ctx.principal!, input),
    nextSteps: (out) => afterReadiness(out),
  }),
  defineOperation({
    name: 'hiring.cost_calculator',
    domain: 'hiring',
    title: 'Employee cost calculator',
    description:
      'Full cost of an employee per hour, week and year: the wage (your rate, or the National Minimum Wage as a labelled floor, since award rates are not held; apprentice percentage by year), the super guarantee, annual leave loading, workers\' compensation by state where sourced, and payroll tax over the state threshold. A cost with no sourced figure is shown as left out, not guessed. ' + CITED,
    input: CostInput,
    output: CostResponse,
    access,
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/hiring/cost-calculator' },
    run: (ctx, input) => hiringService.cost(ctx.deps, ctx.principal!, input),
    nextSteps: (out) => afterCost(out),
  }),
  defineOperation({
    name: 'hiring.apprentice_workflow',
    domain: 'hiring',
    title: 'Apprentice hiring steps',
    description:
      'Step-by-step process to take on an apprentice in a state: the award and its wage percentages by year (unconfirmed ones marked unconfirmed), an Apprenticeship Support Network provider, the training contract, employer set-up, the White Card, incentives (Key Apprenticeship Program, Priority Hiring Incentive) with their dates, and payroll tax relief, plus the employer\'s obligations. ' + CITED,
    input: ApprenticeInput,
    output: ApprenticeResponse,
    access,
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/hiring/apprentice-workflow' },
    run: (ctx, input) => hiringService.apprentice(ctx.deps, ctx.principal!, input),
    nextSteps: () => afterApprentice(),
  }),
  defineOperation({
    name: 'hiring.compliance_checklist',
    domain: 'hiring',
    title: 'Employer compliance checklist',
    description:
      'Checklist of employer obligations for a new employee: PAYG withholding before the first pay, Single Touch Payroll, the Fair Work Information Statement, the TFN declaration, super choice, the super guarantee and Payday Super (marked as applying from a future date until it starts), workers\' compensation, WHS induction (White Card) and the state payroll tax threshold. ' + CITED,
    input: ComplianceInput,
    output: ComplianceResponse,
    access,
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/hiring/compliance-checklist' },
    run: (ctx, input) => hiringService.compliance(ctx.deps, ctx.principal!, input),
    nextSteps: () => afterCompliance(),
  }),
]
