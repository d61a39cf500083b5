import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Trade } from '../shared-schema.js'

const capability = 'Business advisory'
const access = { permission: 'read' } as const
const Role = StringEnum(['apprentice', 'tradesperson', 'labourer', 'office_admin'] as const, { description: 'Role to hire' })
const EmploymentType = StringEnum(['full_time', 'part_time', 'casual'] as const, { default: 'full_time', description: 'Employment type' })
const Award = StringEnum(['MA000020', 'MA000025', 'MA000036'] as const, {
  description: 'Modern award: MA000020 Building and Construction General On-site, MA000025 Electrical Contracting, MA000036 Plumbing and Fire Sprinklers; inferred from the trade when omitted',
})

export const hiringPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'hiring.capacity_analysis',
    title: 'Team capacity analysis',
    description:
      "Score from 0 to 100 how fully the team's capacity is used, from scheduled and completed jobs, backlog and leads turned away, and say whether and when another person is needed.",
    input: Type.Object(
      {
        weeks: Type.Optional(Type.Integer({ minimum: 1, maximum: 52, default: 12, description: 'Weeks of history to analyse' })),
        team_size: Type.Optional(Type.Integer({ minimum: 1, description: 'People doing billable work, including the owner, if not recorded' })),
        hours_per_person_per_week: Type.Optional(Type.Number({ minimum: 1, maximum: 80, default: 38, description: 'Available working hours per person per week' })),
      },
      closed,
    ),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'hiring.readiness_score',
    title: 'Hiring readiness score',
    description:
      'Score how ready the business is to employ its first or next person: steady pipeline, cash reserves to cover wages and on-costs, and employer registrations (PAYG withholding, Single Touch Payroll, super, workers compensation), with the gaps to close.',
    input: Type.Object(
      {
        role: Type.Optional(Role),
        state: Type.Optional(AuState()),
        cash_reserves: Type.Optional(Dollars('none', { minimum: 0, description: 'Cash available' })),
      },
      closed,
    ),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'hiring.cost_calculator',
    title: 'Employee cost calculator',
    description:
      'Full cost of an employee per year and per hour: wage (given rate, or the award minimum; National Minimum Wage $24.95/hr from 1 Jul 2025), apprentice wage percentage by year, super guarantee 12%, workers compensation, payroll tax where the state threshold is exceeded, leave and other on-costs, less any hiring incentives. Estimates with sources and as-of dates.',
    input: Type.Object(
      {
        role: Type.Optional(Role),
        employment_type: Type.Optional(EmploymentType),
        award: Type.Optional(Award),
        trade: Type.Optional(Trade()),
        hourly_rate: Type.Optional(Dollars('none', { minimum: 0, description: 'Agreed hourly wage; the award minimum is used when omitted' })),
        hours_per_week: Type.Optional(Type.Number({ minimum: 1, maximum: 60, default: 38, description: 'Ordinary hours per week' })),
        apprentice_year: Type.Optional(Type.Integer({ minimum: 1, maximum: 4, description: 'Apprenticeship year (for apprentices)' })),
        state: Type.Optional(AuState('State or territory, for payroll tax and workers compensation')),
        existing_annual_payroll: Type.Optional(Dollars('none', { minimum: 0, description: 'Current yearly wages, to check the payroll tax threshold' })),
      },
      closed,
    ),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'hiring.apprentice_workflow',
    title: 'Apprentice hiring steps',
    description:
      'Step-by-step process to take on an apprentice in a state: choose the award and wage percentage, contact an Apprenticeship Support Network provider, sign and register the training contract, claim incentives (Key Apprenticeship Program, Priority Hiring Incentive) and payroll tax relief, and employer obligations.',
    input: Type.Object(
      {
        trade: Type.Optional(Trade()),
        state: Type.Optional(AuState()),
        employment_type: Type.Optional(StringEnum(['full_time', 'part_time'] as const, { default: 'full_time', description: 'Full-time or part-time apprenticeship' })),
        adult_apprentice: Type.Optional(Type.Boolean({ description: 'Whether the apprentice is an adult apprentice, which can change the wage rate' })),
      },
      closed,
    ),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'hiring.compliance_checklist',
    title: 'Employer compliance checklist',
    description:
      'Checklist of employer obligations: register for PAYG withholding before the first pay, Single Touch Payroll, super guarantee 12% (Payday Super from 1 Jul 2026: within 7 business days of payday), workers compensation, the Fair Work Information Statement, the right award, payroll tax and record keeping.',
    input: Type.Object(
      {
        state: Type.Optional(AuState()),
        employment_type: Type.Optional(EmploymentType),
        first_employee: Type.Optional(Type.Boolean({ default: true, description: 'Whether this is the first employee (include one-off registrations)' })),
      },
      closed,
    ),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
