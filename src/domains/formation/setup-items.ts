// The tasks of setting up a trade business, in the order a new owner does them, each resting on
// cited facts (src/facts). formation.requirements, formation.checklist and formation.guided_setup
// all read this one list, so they never disagree about what is required.
import { factById, factValue } from '../../facts/facts.js'
import type { BUSINESS_STRUCTURES } from '../shared-schema.js'
import { rulesFor, type AuStateCode } from './licensing.js'
import type { SetupGroup } from './setup-schema.js'
import type { TradeKind } from './trades.js'

export type Structure = (typeof BUSINESS_STRUCTURES)[number]

export interface SetupContext {
  kinds: TradeKind[]
  state: AuStateCode | null
  structure: Structure | null
  residential: boolean
  plansEmployees: boolean
}

export interface SetupItem {
  key: string
  group: SetupGroup
  title: string
  detail: string
  when: string | null
  unconfirmed: boolean
  fact_ids: string[]
}

const STRUCTURE_FACT: Record<Structure, string> = {
  sole_trader: 'setup.structure.sole_trader', partnership: 'setup.structure.partnership', company: 'setup.structure.company', trust: 'setup.structure.trust',
}

function item(key: string, group: SetupGroup, title: string, factIds: string[], when: string | null = null, extra: string | null = null): SetupItem {
  const facts = factIds.map(factById)
  const detail = [...facts.map((f) => f.statement), ...(extra ? [extra] : [])].join(' ')
  return { key, group, title, detail, when, unconfirmed: facts.some((f) => f.confidence === 'unconfirmed'), fact_ids: factIds }
}

export function gstDays(): number {
  return factValue('gst.registration_days')
}

export function setupItems(ctx: SetupContext): SetupItem[] {
  const structureFacts = ctx.structure ? [STRUCTURE_FACT[ctx.structure]] : Object.values(STRUCTURE_FACT)
  const items: SetupItem[] = [
    item('structure', 'registration', ctx.structure ? `Set up as a ${ctx.structure.replace('_', ' ')}` : 'Choose a business structure', structureFacts, 'Before applying for an ABN'),
    item('abn', 'registration', 'Apply for an ABN', ['setup.abn'], 'Before you trade or invoice'),
  ]
  if (ctx.structure === 'company') items.push(item('company_registration', 'registration', 'Register the company with ASIC', ['setup.company_registration_fee'], 'Before the company trades'))
  items.push(item('business_name', 'registration', 'Register the business name with ASIC (unless you trade under your own name)', ['setup.business_name', 'setup.business_name_fee'], 'Before you trade under the name'))
  for (const rule of rulesFor(ctx.kinds, ctx.state, ctx.residential)) {
    items.push(item(rule.key, rule.group, rule.title, rule.facts, rule.group === 'licensing' ? 'Before you do the work' : 'Before the contract is signed or work starts'))
  }
  items.push(
    item('gst', 'tax', 'Register for GST when turnover reaches the threshold', ['gst.registration_threshold', 'gst.registration_days'], `Within ${gstDays()} days of reaching the threshold`),
    item('bas', 'tax', 'Lodge a BAS once registered for GST', ['setup.bas_frequency', 'setup.bas_quarterly_due_dates'], factById('setup.bas_quarterly_due_dates').statement),
  )
  if (ctx.plansEmployees) {
    items.push(
      item('payg_withholding', 'employment', 'Register for PAYG withholding', ['setup.payg_withholding'], 'Before the first wage payment'),
      item('single_touch_payroll', 'employment', 'Report pay through Single Touch Payroll', ['setup.single_touch_payroll'], 'From the first pay run'),
      item('super', 'employment', 'Pay super guarantee for each employee', ['super.guarantee_rate', 'super.payday_super'], 'With each pay run'),
      { key: 'workers_compensation', group: 'insurance', title: "Take out workers' compensation insurance", detail: "Every state and territory requires an employer to insure its workers with the state's scheme (or an approved insurer); premiums are set by the scheme, by industry and wages. No premium figure is shown here: ask your state's scheme for a quote.", when: 'Before the first employee starts', unconfirmed: false, fact_ids: [] },
    )
  }
  items.push(item('record_keeping', 'operations', 'Keep business records', ['setup.record_keeping_years'], 'From the first transaction'))
  return items
}

/** Whole-dollar thresholds as the owner reads them: $75,000 (cents in the facts). */
export function formatWholeDollars(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-AU', { maximumFractionDigits: 0 })}`
}
