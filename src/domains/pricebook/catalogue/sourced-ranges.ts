// The only price figures the shipped catalogue carries, each copied with its source and date from
// the project's AU trade-facts reference sheet (section 8, "Typical trade rates", copied
// 2026-11-26; the sheet itself stays outside the repository). These are what a
// customer is charged (market rates), not what the trade pays; the source does not state a GST
// basis. A figure whose source has no date is left out, with the reason, in WITHHELD below.

export interface SourcedRange {
  low_cents: number
  high_cents: number
  /** What the range is a range of, in words. */
  basis: string
  /** As the source states it, e.g. "$80-$200 per hour". */
  text: string
  source: string
  /** When the source says the figure applied (as precise as the source is). */
  as_of: string
}

export const SOURCED_RANGES: Record<string, SourcedRange> = {
  'PLB-LAB-STANDARD': {
    low_cents: 8_000, high_cents: 20_000,
    basis: 'hourly rate plumbers charge customers (market range, not a cost)',
    text: '$80-$200 per hour',
    source: 'whatsthedamage.com.au (third-party price guide)',
    as_of: 'c. 2025',
  },
  'PLB-CALL-STANDARD': {
    low_cents: 8_000, high_cents: 15_000,
    basis: 'call-out fee plumbers charge customers (market range, not a cost)',
    text: '$80-$150 call-out',
    source: 'whatsthedamage.com.au (third-party price guide)',
    as_of: 'c. 2025',
  },
  'CAR-LAB-STANDARD': {
    low_cents: 5_000, high_cents: 12_000,
    basis: 'hourly rate carpenters charge customers (market range, not a cost)',
    text: 'about $50-$120 per hour',
    source: 'service.com.au (third-party price guide)',
    as_of: '2024-02',
  },
}

/** Figures the reference sheet has but the catalogue does not ship, and why. */
export const WITHHELD: Record<string, string> = {
  'ELE-LAB-STANDARD':
    'Electricians $80-$120/hr (Master Electricians survey cited by reimtv.com) and $70-$140/hr (dynamicgroup.net.au): neither source is dated.',
}
