// compliance.generate_swms: the spec's inputs (unchanged from the planned tool), what a model may word
// (SwmsWording: the work steps, their hazards and controls, inside the structure, with the draft
// marking and the sign-off block it must hand back intact) and the result.
import Type from 'typebox'
import { Nullable, StringEnum } from '../../core/schema-helpers.js'
import { AU_STATES, AuState as AuStateSchema, closed, Id } from '../shared-schema.js'
import { HIERARCHY } from './category-controls.js'
import { HRCW_CODES } from './hrcw.js'

export type AuState = (typeof AU_STATES)[number]

export const SwmsInput = Type.Object(
  {
    job_id: Type.Optional(Id('Job whose description and address to use (give this or work_description)')),
    work_description: Type.Optional(Type.String({ minLength: 3, maxLength: 5000, description: 'The work to be done (give this or job_id)' })),
    high_risk_work: Type.Optional(
      Type.Array(StringEnum(HRCW_CODES), { uniqueItems: true, description: 'High-risk construction work categories involved (reg 291); inferred from the work when omitted' }),
    ),
    state: Type.Optional(AuStateSchema('State or territory of the site, which decides the regulations')),
    site_address: Type.Optional(Type.String({ description: 'Site address' })),
    principal_contractor: Type.Optional(Type.String({ description: 'Principal contractor who must receive a copy before work starts' })),
    additional_hazards: Type.Optional(Type.String({ maxLength: 2000, description: 'Site-specific hazards to include' })),
  },
  closed,
)

const Control = Type.Object({
  level: StringEnum(HIERARCHY, { description: 'Level in the hierarchy of control; controls are listed in this order: elimination, substitution, isolation, engineering, administrative, ppe' }),
  measure: Type.String({ minLength: 3, maxLength: 600 }),
}, closed)

const Step = Type.Object({
  category: Nullable(StringEnum(HRCW_CODES, { description: 'The high-risk construction work category the step controls, or null for a general step' })),
  step: Type.String({ minLength: 3, maxLength: 600 }),
  hazards: Type.Array(Type.String({ minLength: 3, maxLength: 600 }), { minItems: 1, maxItems: 12 }),
  controls: Type.Array(Control, { minItems: 1, maxItems: 16 }),
}, closed)

const SignOff = Type.Object({
  competent_person_lines: Type.Array(Type.String(), { description: 'Lines the competent person completes: Name, Role, Signature, Date' }),
  worker_sign_on_columns: Type.Array(Type.String(), { description: "Columns of the workers' sign-on table" }),
  statement: Type.String({ description: 'What the competent person signs to' }),
}, closed)

/** The part a model may word. Everything else (categories, PPE, people, emergency, rules) comes from rules. */
export const SwmsWording = Type.Object({
  draft_notice: Type.String({ minLength: 10, maxLength: 600 }),
  work_steps: Type.Array(Step, { minItems: 1, maxItems: 30 }),
  sign_off: SignOff,
}, closed)

const Sourced = Type.Object({ requirement: Type.String(), source: Type.String(), as_of: Type.String() }, closed)

export const SwmsResponse = Type.Object({
  status: Type.Literal('draft', { description: 'Always draft: the SWMS must be reviewed, completed and signed by a competent person before work starts' }),
  draft_notice: Type.String(),
  title: Type.String(),
  prepared_on: Type.String({ format: 'date' }),
  business_name: Type.String(),
  abn: Nullable(Type.String()),
  job_id: Nullable(Type.String()),
  state: Nullable(AuStateSchema()),
  site_address: Nullable(Type.String()),
  principal_contractor: Nullable(Type.String()),
  work_description: Type.String(),
  regulations: Type.Object({ applies: Type.String(), source: Type.String(), as_of: Type.String() }, closed),
  high_risk_work: Type.Array(Type.Object({
    code: StringEnum(HRCW_CODES),
    paragraph: Type.String({ description: 'e.g. reg 291(a)' }),
    description: Type.String(),
    matched_words: Type.Array(Type.String(), { description: 'Words in the work description that pointed to the category' }),
    given: Type.Boolean({ description: 'Named by the caller in high_risk_work' }),
  }, closed), { description: 'The high-risk construction work categories found; empty when none was found (then a SWMS is not required by reg 299, which the competent person confirms)' }),
  high_risk_work_source: Type.Object({ source: Type.String(), as_of: Type.String() }, closed),
  hierarchy_of_control: Type.Array(Type.String(), { description: 'The order controls are listed in, most effective first' }),
  work_steps: Type.Array(Type.Object({ number: Type.Integer({ minimum: 1 }), ...Step.properties }, closed)),
  ppe: Type.Array(Type.String()),
  emergency: Type.Array(Type.String()),
  people: Type.Object({
    competencies: Type.Array(Sourced),
    not_sourced: Type.String({ description: 'What our sourced data does not cover, which the competent person confirms' }),
  }, closed),
  sign_off: SignOff,
  rules: Type.Array(Sourced, { description: 'What a SWMS must do and how it is kept, each with its source' }),
  document: Type.Object({
    id: Type.String(),
    file_url: Type.String({ description: 'Signed link to the PDF, valid until file_url_expires_at' }),
    file_url_expires_at: Type.String(),
    size_bytes: Type.Integer(),
    sha256: Type.String(),
    duplicate: Type.Boolean({ description: 'The same draft was stored before (same inputs on the same day): that document answers' }),
  }, closed),
  produced_by: Type.String({ description: "Who worded the steps, hazards and controls: 'model:<name>' or 'local-default' (rules and templates, no model)" }),
  provider_note: Nullable(Type.String({ description: 'Why the local default answered although a model is configured' })),
}, closed)
