import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Id } from '../shared-schema.js'

/** High-risk construction work categories of model WHS Regulations reg 291, (a) to (r). */
const HIGH_RISK_WORK = [
  'fall_over_2m',
  'telecommunication_tower',
  'demolition_load_bearing',
  'asbestos',
  'structural_alteration_temporary_support',
  'confined_space',
  'trench_shaft_over_1_5m_or_tunnel',
  'explosives',
  'pressurised_gas_mains',
  'chemical_fuel_refrigerant_lines',
  'energised_electrical',
  'contaminated_flammable_atmosphere',
  'tilt_up_precast_concrete',
  'traffic_corridor',
  'powered_mobile_plant',
  'extreme_temperatures',
  'drowning_risk',
  'diving',
] as const

export const compliancePlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'compliance.generate_swms',
    title: 'Draft a SWMS',
    description:
      'AI draft of a Safe Work Method Statement (SWMS) for high-risk construction work: identifies the high-risk work, its hazards and risks, and the control measures and how they are implemented, monitored and reviewed (model WHS Regulations regs 291 and 299; Victoria uses OHS Regulations 2017 Part 5.1). The draft must be reviewed, completed and signed by a competent person before work starts. Nothing is saved.',
    input: Type.Object(
      {
        job_id: Type.Optional(Id('Job whose description and address to use (give this or work_description)')),
        work_description: Type.Optional(Type.String({ minLength: 3, maxLength: 5000, description: 'The work to be done (give this or job_id)' })),
        high_risk_work: Type.Optional(
          Type.Array(StringEnum(HIGH_RISK_WORK), { uniqueItems: true, description: 'High-risk construction work categories involved (reg 291); inferred from the work when omitted' }),
        ),
        state: Type.Optional(AuState('State or territory of the site, which decides the regulations')),
        site_address: Type.Optional(Type.String({ description: 'Site address' })),
        principal_contractor: Type.Optional(Type.String({ description: 'Principal contractor who must receive a copy before work starts' })),
        additional_hazards: Type.Optional(Type.String({ maxLength: 2000, description: 'Site-specific hazards to include' })),
      },
      closed,
    ),
    access: { scope: 'jobs', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability: 'Subcontractors and compliance',
  }),
]
