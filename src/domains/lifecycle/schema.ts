// lifecycle.assess: the spec's input fields (unchanged from the planned tool) and the output: the
// stage, the evidence from the company's figures, and what moves it to the next stage.
import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { closed } from '../shared-schema.js'
import { adviceFields, PROVENANCE } from './advice-schema.js'

export const STAGES = ['formation', 'survival', 'capacity', 'funding', 'scaling'] as const
export type Stage = (typeof STAGES)[number]

export const AssessInput = Type.Object(
  {
    months_trading: Type.Optional(Type.Integer({ minimum: 0, maximum: 1200, description: 'Months since the business started trading' })),
    employees: Type.Optional(Type.Integer({ minimum: 0, description: 'People employed besides the owner' })),
    annual_revenue: Type.Optional(Dollars('none', { minimum: 0, description: 'Revenue over the last 12 months, if not all recorded here' })),
    goals: Type.Optional(Type.String({ maxLength: 1000, description: "The owner's goals, e.g. \"hire an apprentice this year\"" })),
  },
  closed,
)

const Evidence = Type.Object({
  finding: Type.String({ description: 'A plain sentence with the figure' }),
  provenance: StringEnum(PROVENANCE),
})

const Rule = Type.Object({
  stage: StringEnum(STAGES),
  rule: Type.String({ description: 'When a business is in this stage (this tool\'s own rule, not a published standard)' }),
  holds: Type.Boolean({ description: 'Whether it holds for this business' }),
})

export const AssessResponse = Type.Object({
  business_name: Type.String(),
  stage: StringEnum(STAGES, { description: 'formation, survival, capacity, funding or scaling' }),
  summary: Type.Array(Type.String(), { description: 'The stage and why, in plain sentences with the numbers' }),
  evidence: Type.Array(Evidence, { description: 'The figures the stage rests on' }),
  rules: Type.Array(Rule, { description: 'Every stage\'s rule, in order; the first that holds is the stage' }),
  next_stage: Nullable(StringEnum(STAGES)),
  to_next_stage: Type.Array(Type.String(), { description: 'What moves the business to the next stage' }),
  priorities: Type.Array(Type.String(), { description: 'What matters in this stage' }),
  ...adviceFields,
})
