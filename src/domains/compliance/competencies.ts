// The people's competencies and the regulations a SWMS answers to: only what the project's AU
// reference sheet holds, each with its source and date. Where the sheet holds nothing (most
// high-risk work licences for plant), the draft says so rather than naming a licence.
import type { AuState } from './schema.js'
import type { HrcwCode } from './hrcw.js'

export interface SourcedFact { requirement: string; source: string; as_of: string }

const SHEET = 'project AU trade reference sheet, 2026-11'

export const WHITE_CARD: SourcedFact = {
  requirement: 'Every worker: general construction induction (White Card), unit CPCWHS1001 "Prepare to work safely in the construction industry" (older code CPCCWHS1001), required before construction work and recognised in every state',
  source: 'model WHS Regulations reg 316, as summarised by rulesmate.com.au, coaltrain.com.au and sitekiln.net (3rd-party)', as_of: SHEET,
}

const ELECTRICAL_REGULATOR: Record<AuState, string> = {
  NSW: 'NSW: contractor licence (Building Commission NSW / NSW Fair Trading) for all electrical wiring work',
  VIC: 'VIC: Energy Safe Victoria (Registered Electrical Contractor)',
  QLD: 'QLD: Electrical Safety Office (WorkSafe QLD) electrical contractor licence',
  WA: 'WA: Electrical Licensing Board (a contractor must employ licensed electricians)',
  SA: 'SA: CBS electrical licence',
  TAS: 'TAS: CBOS licence',
  ACT: 'ACT: Access Canberra / Construction Occupations Registrar licence',
  NT: 'NT: Electrical Workers and Contractors Licensing Board licence',
}
const GAS_REGULATOR: Record<AuState, string> = {
  NSW: 'NSW: contractor licence (Building Commission NSW / NSW Fair Trading) for all gasfitting',
  VIC: 'VIC: Building and Plumbing Commission licence',
  QLD: 'QLD: QBCC licence for gasfitting of any value',
  WA: 'WA: Plumbers Licensing Board',
  SA: 'SA: CBS licence (gas fitting)',
  TAS: 'TAS: CBOS licence',
  ACT: 'ACT: Access Canberra / Construction Occupations Registrar licence',
  NT: 'NT: Plumbers and Drainers Licensing Board',
}
const REGULATORS_SOURCE = 'state regulators as listed in the reference sheet section 2 (nsw.gov.au, energysafe.vic.gov.au, qbcc.qld.gov.au, worksafe.qld.gov.au, commerce.wa.gov.au, sa.gov.au, justice.tas.gov.au, bpb.nt.gov.au, plumberslicensing.nt.gov.au)'

const byState = (table: Record<AuState, string>, state: AuState | null) =>
  state ? table[state] : `the licence of the state where the work is done (${Object.values(table).join('; ')})`

/** The sourced licence a category's work needs, or null when the reference sheet holds none for it. */
export function licenceFor(code: HrcwCode, state: AuState | null): SourcedFact | null {
  if (code === 'energised_electrical') {
    return { requirement: `Electrical work (isolation, wiring): a licensed electrician under ${byState(ELECTRICAL_REGULATOR, state)}`, source: REGULATORS_SOURCE, as_of: SHEET }
  }
  if (code === 'pressurised_gas_mains') {
    return { requirement: `Gasfitting: a licensed gasfitter under ${byState(GAS_REGULATOR, state)}`, source: REGULATORS_SOURCE, as_of: SHEET }
  }
  if (code === 'chemical_fuel_refrigerant_lines') {
    return {
      requirement: 'Work on refrigerant lines: a Refrigerant Handling Licence (Australian Refrigeration Council, ARCtick); the business needs a Refrigerant Trading Authorisation. State electrical or plumbing licences do not replace these',
      source: 'Ozone Protection and Synthetic Greenhouse Gas Management Regulations 1995, via arctick.org FAQ and arcltd.org.au help centre', as_of: SHEET,
    }
  }
  return null
}

export const NO_SOURCED_LICENCE = 'High-risk work licences (for example for cranes, forklifts, scaffolding or dogging) and other competencies this work may need are not held in our sourced data, so none is named: the competent person confirms them with the WHS regulator before work starts.'

export interface Regulations { applies: string; source: string; as_of: string }

export function regulationsFor(state: AuState | null): Regulations {
  if (state === 'VIC') {
    return { applies: 'Victoria is not a model-WHS state: Occupational Health and Safety Regulations 2017 Part 5.1 (regs 324 to 326) set its SWMS duties; this draft follows the model WHS categories, which the competent person checks against them.', source: 'ohsrep.org.au; swms.ohconsultant.com.au (3rd-party)', as_of: SHEET }
  }
  if (state === 'WA') {
    return { applies: 'WA: Work Health and Safety (General) Regulations 2022, Chapter 6 (construction work).', source: 'project AU trade reference sheet section 5', as_of: SHEET }
  }
  return { applies: `${state ?? 'Model-WHS states and territories'}: Work Health and Safety Regulations (model WHS Regulations), Chapter 6: high-risk construction work (reg 291) and SWMS (regs 299 to 303).`, source: 'Safe Work Australia model WHS Regulations; NSW WHS Regulation 2017 cl 291; SA and NT WHS Regulations r299, r303 (austlii)', as_of: SHEET }
}

/** What a SWMS must do and how it is kept, each sourced: shown on every draft. */
export const SWMS_RULES: SourcedFact[] = [
  { requirement: 'The SWMS is prepared before the high-risk construction work starts; it identifies the work, specifies the hazards and risks, and describes the control measures and how they are implemented, monitored and reviewed (reg 299).', source: 'SA WHS Regulations 2012 r299; NT r299 (austlii)', as_of: SHEET },
  { requirement: 'The work is done as the SWMS says, or stopped until it is; a copy goes to the principal contractor before work starts.', source: 'safetycomply.au summaries (3rd-party)', as_of: SHEET },
  { requirement: 'The SWMS is reviewed and revised when control measures are revised: they do not work, the workplace changes, a new hazard is found, consultation or a health and safety representative asks for it (regs 38 and 302).', source: 'NSW/WA reg 38 text (exact reg 302 wording not retrieved)', as_of: SHEET },
  { requirement: 'Keep the SWMS, readily accessible to workers, until the work is complete, or for 2 years after a notifiable incident (reg 303).', source: 'SA WHS Regulations r303 (austlii)', as_of: SHEET },
]
