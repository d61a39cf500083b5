// The arithmetic of formation.simulate_business, with no I/O: month by month revenue, costs, super,
// profit, tax (company only), cash and the GST registration month. Every rate and threshold comes
// in as a parameter the caller took from a cited fact; nothing here is a figure of its own but the
// calendar (52 weeks, 12 months). Amounts are integer cents, rounded once per line.

export interface SimulationParams {
  months: number
  hourlyRateCents: number
  billableHoursPerWeek: number
  weeksOffPerYear: number
  rampUpMonths: number
  employees: number
  employeeWageCents: number
  apprentices: number
  apprenticeWageCents: number
  materialsCostCents: number
  materialsMarkup: number
  startupCostsCents: number
  overheadsCents: number
  insuranceCents: number
  superRate: number
  gstThresholdCents: number
  /** Company tax rate as a fraction; null: tax not computed. */
  taxRate: number | null
}

export interface MonthCents {
  month: number
  billableHours: number
  revenue: number
  materialsCost: number
  wages: number
  super: number
  insurance: number
  overheads: number
  startupCosts: number
  profitBeforeTax: number
  tax: number | null
  cashFlow: number
  cumulativeCash: number
  gstTurnoverCurrent: number
  gstTurnoverProjected: number
  gstRegistered: boolean
}

export interface SimulationResult {
  months: MonthCents[]
  breakEvenMonth: number | null
  firstProfitableMonth: number | null
  gstRegistrationMonth: number | null
}

const WEEKS_PER_YEAR = 52
const MONTHS_PER_YEAR = 12

/** Share of full workload in month m (1-based): m/(ramp+1) until it reaches 1. */
export const rampShare = (month: number, rampUpMonths: number) => Math.min(1, month / (rampUpMonths + 1))

export function simulateMonths(p: SimulationParams): SimulationResult {
  const billedWeeksPerMonth = (WEEKS_PER_YEAR - p.weeksOffPerYear) / MONTHS_PER_YEAR
  // Staff are paid through leave and quiet weeks: every week of the year.
  const paidWeeksPerMonth = WEEKS_PER_YEAR / MONTHS_PER_YEAR
  const base = Array.from({ length: p.months }, (_, i) => {
    const month = i + 1
    const share = rampShare(month, p.rampUpMonths)
    const billableHours = p.billableHoursPerWeek * billedWeeksPerMonth * share * (1 + p.employees)
    const materialsCost = Math.round(p.materialsCostCents * share)
    const revenue = Math.round(p.hourlyRateCents * billableHours) + Math.round(materialsCost * (1 + p.materialsMarkup))
    const wages = Math.round((p.employees * p.employeeWageCents + p.apprentices * p.apprenticeWageCents) * p.billableHoursPerWeek * paidWeeksPerMonth)
    const superCents = Math.round(wages * p.superRate)
    const startupCosts = month === 1 ? p.startupCostsCents : 0
    const profitBeforeTax = revenue - materialsCost - wages - superCents - p.insuranceCents - p.overheadsCents
    return { month, billableHours, revenue, materialsCost, wages, super: superCents, insurance: p.insuranceCents, overheads: p.overheadsCents, startupCosts, profitBeforeTax }
  })
  const revenueAt = (m: number) => (m <= p.months ? base[m - 1]!.revenue : base[p.months - 1]!.revenue)
  let cumulativeProfit = 0
  let taxSoFar = 0
  let cumulativeCash = 0
  let gstRegistrationMonth: number | null = null
  const months: MonthCents[] = base.map((b) => {
    cumulativeProfit += b.profitBeforeTax
    // Tax set aside on the profit so far: a loss offsets later profit, and a later loss gives some back.
    let tax: number | null = null
    if (p.taxRate !== null) {
      const due = Math.round(Math.max(0, cumulativeProfit) * p.taxRate)
      tax = due - taxSoFar
      taxSoFar = due
    }
    const cashFlow = b.profitBeforeTax - (tax ?? 0) - b.startupCosts
    cumulativeCash += cashFlow
    let current = 0
    for (let m = Math.max(1, b.month - 11); m <= b.month; m++) current += revenueAt(m)
    let projected = 0
    for (let m = b.month; m <= b.month + 11; m++) projected += revenueAt(m)
    if (gstRegistrationMonth === null && (current >= p.gstThresholdCents || projected >= p.gstThresholdCents)) gstRegistrationMonth = b.month
    return { ...b, tax, cashFlow, cumulativeCash, gstTurnoverCurrent: current, gstTurnoverProjected: projected, gstRegistered: gstRegistrationMonth !== null }
  })
  return {
    months,
    breakEvenMonth: months.find((m) => m.cumulativeCash >= 0)?.month ?? null,
    firstProfitableMonth: months.find((m) => m.profitBeforeTax > 0)?.month ?? null,
    gstRegistrationMonth,
  }
}
