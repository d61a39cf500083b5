// Security-of-payment acts, one per state and territory, for the optional payment-claim statement
// on a progress claim for construction work. Names as published; every state and territory has one
// (turtons.com, via ../shared/reference/au-trade-facts.md section 6, compiled 2026). Keep the
// source and date beside these when they change.
export const SOP_SOURCE = { source: 'au-trade-facts.md section 6 (turtons.com; fairtrading.nsw.gov.au; legislation registers)', asOf: '2026-01' }

export const SECURITY_OF_PAYMENT_ACTS: Record<string, string> = {
  NSW: 'Building and Construction Industry Security of Payment Act 1999 (NSW)',
  VIC: 'Building and Construction Industry Security of Payment Act 2002 (Vic)',
  QLD: 'Building Industry Fairness (Security of Payment) Act 2017 (Qld)',
  WA: 'Building and Construction Industry (Security of Payment) Act 2021 (WA)',
  SA: 'Building and Construction Industry Security of Payment Act 2009 (SA)',
  TAS: 'Building and Construction Industry Security of Payment Act 2009 (Tas)',
  ACT: 'Building and Construction Industry (Security of Payment) Act 2009 (ACT)',
  NT: 'Construction Contracts (Security of Payments) Act 2004 (NT)',
}

/** The statement printed on a payment claim; without a known state it names no act and says so. */
export function paymentClaimStatement(state: string | null): string {
  const act = state ? SECURITY_OF_PAYMENT_ACTS[state] : undefined
  if (!act) return 'This is a payment claim for construction work. Set your state in the invoicing settings so the claim names the security-of-payment act that applies.'
  return `This is a payment claim made under the ${act}.`
}
