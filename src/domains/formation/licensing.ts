// Which licences and home-warranty rules apply to a trade in a state, by fact id (src/facts/data/
// licensing-<state>.json and licensing-national.json). The figures live in the facts; a rule here
// only says which facts a kind of trade must know about, and whether it is about residential work.
import type { AU_STATES } from '../shared-schema.js'
import type { TradeKind } from './trades.js'

export type AuStateCode = (typeof AU_STATES)[number]

export interface LicenceRule {
  key: string
  group: 'licensing' | 'insurance'
  title: string
  /** The kinds it applies to; 'all' for every trade doing building work in the state. */
  kinds: TradeKind[] | 'all'
  /** Only for residential work (home-warranty insurance, written contracts). */
  residentialOnly?: boolean
  facts: string[]
}

const WIRING: TradeKind[] = ['electrical']
const PLUMBING: TradeKind[] = ['plumbing']
const BUILDING: TradeKind[] = ['building']

export const STATE_RULES: Record<AuStateCode, LicenceRule[]> = {
  NSW: [
    { key: 'licence.electrical', group: 'licensing', title: 'Contractor licence for all electrical wiring work, whatever its value', kinds: WIRING, facts: ['licence.nsw.contractor_threshold', 'licence.nsw.regulator'] },
    { key: 'licence.plumbing', group: 'licensing', title: 'Contractor licence for all plumbing, drainage and gasfitting work, whatever its value', kinds: PLUMBING, facts: ['licence.nsw.contractor_threshold', 'licence.nsw.regulator'] },
    { key: 'licence.refrigeration', group: 'licensing', title: 'Contractor licence for all air-conditioning and refrigeration work (except plug-in)', kinds: ['refrigeration'], facts: ['licence.nsw.contractor_threshold', 'licence.nsw.regulator'] },
    { key: 'licence.building', group: 'licensing', title: 'Contractor licence for residential building work over the NSW threshold', kinds: BUILDING, facts: ['licence.nsw.contractor_threshold', 'licence.nsw.regulator'] },
    { key: 'contract.written', group: 'licensing', title: 'Written contract for residential work over the NSW threshold', kinds: 'all', residentialOnly: true, facts: ['licence.nsw.written_contract'] },
    { key: 'home_warranty', group: 'insurance', title: 'Home Building Compensation Fund (HBCF) insurance for residential work over the NSW threshold', kinds: 'all', residentialOnly: true, facts: ['home_warranty.nsw.hbcf_threshold'] },
  ],
  VIC: [
    { key: 'licence.building', group: 'licensing', title: 'Building and Plumbing Commission registration for major domestic building contracts', kinds: BUILDING, facts: ['licence.vic.building_registration_threshold'] },
    { key: 'licence.plumbing', group: 'licensing', title: 'Building and Plumbing Commission plumbing registration or licence', kinds: PLUMBING, facts: ['licence.vic.plumbing'] },
    { key: 'licence.electrical', group: 'licensing', title: 'Registered Electrical Contractor with Energy Safe Victoria', kinds: WIRING, facts: ['licence.vic.electrical'] },
    { key: 'home_warranty', group: 'insurance', title: 'Domestic building insurance over the Victorian threshold', kinds: 'all', residentialOnly: true, facts: ['home_warranty.vic.insurance_threshold', 'home_warranty.vic.buyer_protections_2026'] },
  ],
  QLD: [
    { key: 'licence.building', group: 'licensing', title: 'QBCC licence for building work over the Queensland threshold', kinds: BUILDING, facts: ['licence.qld.building_threshold'] },
    { key: 'licence.plumbing', group: 'licensing', title: 'QBCC licence for plumbing, drainage and gasfitting of any value', kinds: PLUMBING, facts: ['licence.qld.plumbing_any_value'] },
    { key: 'licence.electrical', group: 'licensing', title: 'Electrical contractor licence from the Electrical Safety Office', kinds: WIRING, facts: ['licence.qld.electrical_contractor'] },
    { key: 'home_warranty', group: 'insurance', title: 'Queensland Home Warranty Scheme premium for residential work over the threshold', kinds: 'all', residentialOnly: true, facts: ['home_warranty.qld.qhws_threshold'] },
  ],
  WA: [
    { key: 'licence.building', group: 'licensing', title: 'Registered builder for permitted building work over the WA threshold', kinds: BUILDING, facts: ['licence.wa.builder_threshold'] },
    { key: 'licence.plumbing', group: 'licensing', title: 'Plumbers Licensing Board licence', kinds: PLUMBING, facts: ['licence.wa.plumbing'] },
    { key: 'licence.electrical', group: 'licensing', title: 'Electrical contractor licence from the Electrical Licensing Board', kinds: WIRING, facts: ['licence.wa.electrical'] },
    { key: 'home_warranty', group: 'insurance', title: 'Home indemnity insurance for residential work over the WA threshold', kinds: 'all', residentialOnly: true, facts: ['home_warranty.wa.home_indemnity_threshold'] },
  ],
  SA: [
    { key: 'licence.building', group: 'licensing', title: 'CBS building work contractor licence and supervisor registration', kinds: BUILDING, facts: ['licence.sa.building'] },
    { key: 'licence.plumbing', group: 'licensing', title: 'CBS plumbing and gas fitting licence', kinds: PLUMBING, facts: ['licence.sa.plumbing_gas'] },
    { key: 'licence.electrical', group: 'licensing', title: 'CBS electrical licence', kinds: WIRING, facts: ['licence.sa.electrical'] },
    { key: 'home_warranty', group: 'insurance', title: 'Written contract and building indemnity insurance over the SA threshold', kinds: 'all', residentialOnly: true, facts: ['home_warranty.sa.bii_threshold', 'home_warranty.sa.bii_threshold_before_nov_2025'] },
  ],
  TAS: [
    { key: 'licence.cbos', group: 'licensing', title: 'CBOS occupational licence for building, plumbing or electrical work', kinds: [...BUILDING, ...PLUMBING, ...WIRING, 'refrigeration'], facts: ['licence.tas.cbos'] },
    { key: 'contract.written', group: 'licensing', title: 'Written residential building work contract over the Tasmanian threshold', kinds: 'all', residentialOnly: true, facts: ['home_warranty.tas.written_contract_threshold'] },
    { key: 'home_warranty', group: 'insurance', title: 'Home warranty insurance in Tasmania (unconfirmed)', kinds: 'all', residentialOnly: true, facts: ['home_warranty.tas.insurance'] },
  ],
  ACT: [
    { key: 'licence.access_canberra', group: 'licensing', title: 'Construction occupation licence through Access Canberra', kinds: [...BUILDING, ...PLUMBING, ...WIRING, 'refrigeration'], facts: ['licence.act.access_canberra'] },
    { key: 'licence.der', group: 'licensing', title: 'DER endorsement for solar and battery work', kinds: WIRING, facts: ['licence.act.der_endorsement'] },
    { key: 'home_warranty', group: 'insurance', title: 'Residential building insurance or fidelity certificate over the ACT threshold', kinds: 'all', residentialOnly: true, facts: ['home_warranty.act.threshold', 'home_warranty.act.cover'] },
  ],
  NT: [
    { key: 'licence.building', group: 'licensing', title: 'Registered building contractor for residential work over the NT threshold', kinds: BUILDING, facts: ['licence.nt.building_threshold'] },
    { key: 'licence.plumbing', group: 'licensing', title: 'Plumbers and Drainers Licensing Board licence', kinds: PLUMBING, facts: ['licence.nt.plumbing'] },
    { key: 'licence.electrical', group: 'licensing', title: 'Electrical contractor licence (Electrical Workers and Contractors Licensing Board)', kinds: WIRING, facts: ['licence.nt.electrical'] },
    { key: 'home_warranty', group: 'insurance', title: 'Residential building insurance in the NT (threshold unconfirmed)', kinds: 'all', residentialOnly: true, facts: ['home_warranty.nt.threshold'] },
  ],
}

/** The national rules: ARCtick for refrigerant work, the White Card for anyone on a construction site. */
export const NATIONAL_RULES: LicenceRule[] = [
  { key: 'arctick.handling', group: 'licensing', title: 'ARCtick Refrigerant Handling Licence (each technician)', kinds: ['refrigeration'], facts: ['licence.national.refrigerant_handling'] },
  { key: 'arctick.trading', group: 'licensing', title: 'ARCtick Refrigerant Trading Authorisation (the business)', kinds: ['refrigeration'], facts: ['licence.national.refrigerant_trading'] },
  { key: 'white_card', group: 'licensing', title: 'White Card (CPCWHS1001) before any construction work', kinds: 'all', facts: ['licence.national.white_card'] },
]

/** The rules for these kinds in this state (state null: national only), residential ones only when residential. */
export function rulesFor(kinds: TradeKind[], state: AuStateCode | null, residential: boolean): LicenceRule[] {
  const applies = (r: LicenceRule) => (r.kinds === 'all' || r.kinds.some((k) => kinds.includes(k))) && (residential || !r.residentialOnly)
  const seen = new Set<string>()
  return [...(state ? STATE_RULES[state] : []), ...NATIONAL_RULES].filter(applies).filter((r) => !seen.has(r.key) && Boolean(seen.add(r.key)))
}
