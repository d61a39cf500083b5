// The local default's templates: for each high-risk construction work category, the work step it
// adds, its hazards, and controls tagged with their level in the hierarchy of control. These are
// ordinary safe-work practice written as prompts for the competent person, not figures: no distance,
// limit or rating is stated that the reference sheet does not hold (the draft says to confirm them).
import type { HrcwCode } from './hrcw.js'

export const HIERARCHY = ['elimination', 'substitution', 'isolation', 'engineering', 'administrative', 'ppe'] as const
export type ControlLevel = (typeof HIERARCHY)[number]

export interface StepTemplate {
  step: string
  hazards: string[]
  controls: Array<[ControlLevel, string]>
  ppe: string[]
}

export const CATEGORY_STEPS: Record<HrcwCode, StepTemplate> = {
  fall_over_2m: {
    step: 'Set up access and fall protection before anyone works at height',
    hazards: ['Fall from the roof edge, an opening or a ladder (more than 2 m: confirm the height on site)', 'Fall through brittle or fragile roofing, skylights or sheeting', 'Tools and materials falling onto people below'],
    controls: [
      ['elimination', 'Do as much of the work as possible from the ground (prefabricate, cut and assemble below)'],
      ['isolation', 'Exclusion zone below the work area, barricaded and signed'],
      ['engineering', 'Edge protection or scaffold on open edges; mesh or covers over skylights and brittle sheeting; elevated work platform where access allows'],
      ['administrative', 'Fall-arrest system (harness and anchor) only where edge protection cannot be fitted, with a rescue plan; inspect ladders and anchors before use; no work at height in high wind or rain'],
      ['ppe', 'Harness and lanyard where a fall-arrest system is used; non-slip footwear'],
    ],
    ppe: ['Hard hat for people below the work area', 'Non-slip safety footwear', 'Harness and lanyard where a fall-arrest system is used'],
  },
  telecommunication_tower: {
    step: 'Climb and work on the telecommunication tower',
    hazards: ['Fall from the tower', 'Radio-frequency exposure from live antennas', 'Dropped objects'],
    controls: [
      ['isolation', "Antennas powered down or the RF exclusion zone kept, confirmed with the tower's owner"],
      ['engineering', 'Fixed climbing protection and anchors on the structure'],
      ['administrative', "Tower owner's access permit and induction; rescue plan; tool lanyards"],
      ['ppe', 'Climbing harness, helmet with chin strap, RF monitor where required'],
    ],
    ppe: ['Climbing harness', 'Helmet with chin strap'],
  },
  demolition_load_bearing: {
    step: 'Demolish the load-bearing or structural element',
    hazards: ['Unplanned collapse of the structure', 'Falling debris', 'Dust (including silica) and noise'],
    controls: [
      ['engineering', "Temporary supports as designed by an engineer installed before removal; water suppression for dust"],
      ['isolation', 'Exclusion zone around the demolition area'],
      ['administrative', "Demolition sequence written down and followed; engineer's sign-off before removal; services disconnected first"],
      ['ppe', 'Hard hat, P2 respirator, eye and hearing protection'],
    ],
    ppe: ['Hard hat', 'P2 respirator', 'Safety glasses', 'Hearing protection'],
  },
  asbestos: {
    step: 'Identify and manage asbestos before any work that could disturb it',
    hazards: ['Breathing asbestos fibres from disturbed material'],
    controls: [
      ['elimination', 'Do not disturb suspected asbestos: have it identified (asbestos register or a sample tested) first'],
      ['isolation', 'If present, removal by a licensed asbestos removalist with the area sealed off, before other work'],
      ['administrative', 'Stop work and report if unexpected material is found; no power tools on suspected asbestos'],
      ['ppe', 'Disposable coveralls and a P2 respirator for anyone who must enter the area'],
    ],
    ppe: ['P2 respirator', 'Disposable coveralls'],
  },
  structural_alteration_temporary_support: {
    step: 'Install temporary support, then carry out the structural alteration or repair',
    hazards: ['Collapse of the structure while it is altered or repaired'],
    controls: [
      ['engineering', "Temporary propping or shoring to an engineer's design, installed and checked before work"],
      ['isolation', 'Nobody under or beside the unsupported element'],
      ['administrative', "Sequence of work written down; supports removed only on the engineer's say-so"],
      ['ppe', 'Hard hat and safety footwear'],
    ],
    ppe: ['Hard hat', 'Safety footwear'],
  },
  confined_space: {
    step: 'Enter and work in or near the confined space',
    hazards: ['Oxygen-deficient or toxic atmosphere', 'Engulfment or entrapment', 'Difficult rescue'],
    controls: [
      ['elimination', 'Do the work from outside the space where possible'],
      ['isolation', 'Isolate and lock out pipes, services and moving parts into the space'],
      ['engineering', 'Forced ventilation; atmosphere tested before and during entry'],
      ['administrative', 'Confined space entry permit; a standby person outside at all times; rescue plan and equipment ready'],
      ['ppe', 'Respiratory protection as the atmosphere test requires; harness for retrieval'],
    ],
    ppe: ['Respiratory protection as the atmosphere test requires', 'Retrieval harness'],
  },
  trench_shaft_over_1_5m_or_tunnel: {
    step: 'Excavate and work in or near the trench, shaft or tunnel',
    hazards: ['Collapse of the trench walls (deeper than 1.5 m: confirm the depth)', 'Fall into the excavation', 'Striking underground services'],
    controls: [
      ['elimination', 'Trenchless methods (boring) where they suit'],
      ['engineering', 'Shoring, trench shields or battering of the walls; spoil kept back from the edge'],
      ['isolation', 'Barricades around the excavation'],
      ['administrative', 'Underground services located before digging; safe entry and exit (ladder) in the trench; inspect after rain'],
      ['ppe', 'Hard hat, high-visibility clothing, safety footwear'],
    ],
    ppe: ['Hard hat', 'High-visibility clothing', 'Safety footwear'],
  },
  explosives: {
    step: 'Use the explosives',
    hazards: ['Unplanned detonation', 'Flying rock and debris', 'Blast overpressure and noise'],
    controls: [
      ['elimination', 'Mechanical breaking instead of explosives where it will do'],
      ['isolation', 'Exclusion zone cleared and guarded before firing'],
      ['administrative', 'Shot-firing only by a person licensed under the state\'s explosives laws; a written blast plan; warning signals'],
      ['ppe', 'Hearing and eye protection, hard hat'],
    ],
    ppe: ['Hearing protection', 'Safety glasses', 'Hard hat'],
  },
  pressurised_gas_mains: {
    step: 'Work on or near the pressurised gas mains or piping',
    hazards: ['Gas escape, fire or explosion', 'Striking a gas line'],
    controls: [
      ['isolation', "Gas supply isolated and the line purged before work on it; the network owner's requirements followed near mains"],
      ['engineering', 'Gas detector in use; no ignition sources in the work area'],
      ['administrative', 'Gasfitting only by a licensed gasfitter; services located before digging'],
      ['ppe', 'Flame-resistant clothing and eye protection'],
    ],
    ppe: ['Flame-resistant clothing', 'Safety glasses'],
  },
  chemical_fuel_refrigerant_lines: {
    step: 'Work on or near the chemical, fuel or refrigerant lines',
    hazards: ['Release of refrigerant, fuel or chemical (burns, cold burns, asphyxiation, fire)'],
    controls: [
      ['isolation', 'Lines isolated, depressurised and recovered or drained before they are opened'],
      ['engineering', 'Ventilation of the work area; recovery equipment for refrigerant'],
      ['administrative', 'Refrigerant handled only by a holder of a refrigerant handling licence; safety data sheets on site'],
      ['ppe', 'Chemical-resistant gloves and eye protection'],
    ],
    ppe: ['Chemical-resistant gloves', 'Safety glasses'],
  },
  energised_electrical: {
    step: 'Isolate electrical supply and keep clear of live services',
    hazards: ['Electric shock or electrocution from live wiring or overhead power lines', 'Arc flash', 'Conductive tools or materials (ladders, sheeting, grinder leads) contacting live parts'],
    controls: [
      ['elimination', 'Have the supply or the overhead line de-energised or insulated by the network operator for the duration of the work'],
      ['isolation', 'Isolate and lock out circuits at the switchboard, test before touching (test for dead)'],
      ['engineering', 'Residual current device on every power tool lead; non-conductive ladders; line covers (tiger tails) fitted by the network operator or barriers keeping materials away from lines'],
      ['administrative', "Electrical work only by a licensed electrician; a safety observer while working near overhead lines; keep to the network operator's approach distances (confirm them before work)"],
      ['ppe', 'Insulated gloves rated for the work, arc-rated clothing where live work cannot be avoided'],
    ],
    ppe: ['Insulated gloves rated for the work', 'Long-sleeved clothing'],
  },
  contaminated_flammable_atmosphere: {
    step: 'Test and control the atmosphere before and during work',
    hazards: ['Fire or explosion from a flammable atmosphere', 'Breathing contaminants'],
    controls: [
      ['elimination', 'Remove the source of vapour or contamination before work starts'],
      ['engineering', 'Ventilation; atmosphere monitoring; intrinsically safe equipment'],
      ['administrative', 'Hot work permit; no ignition sources; test before entry'],
      ['ppe', 'Respiratory protection as the atmosphere test requires'],
    ],
    ppe: ['Respiratory protection as the atmosphere test requires'],
  },
  tilt_up_precast_concrete: {
    step: 'Lift, place and brace the tilt-up or precast panels',
    hazards: ['Panel falling during lifting or before it is braced', 'Crushing between panel and plant'],
    controls: [
      ['engineering', "Lifting inserts and braces to the panel designer's specifications; crane rated for the lift"],
      ['isolation', 'Exclusion zone under and around the lift'],
      ['administrative', 'Lift plan; licensed crane operator and dogger; braces checked before release'],
      ['ppe', 'Hard hat, high-visibility clothing, safety footwear, gloves'],
    ],
    ppe: ['Hard hat', 'High-visibility clothing', 'Safety footwear'],
  },
  traffic_corridor: {
    step: 'Set up traffic control before working next to the road, rail or traffic corridor',
    hazards: ['Being struck by vehicles or trains'],
    controls: [
      ['elimination', 'Work when the road or line is closed where possible'],
      ['isolation', 'Barriers separating the work area from traffic'],
      ['administrative', "Traffic management plan from the road or rail authority; accredited traffic controllers"],
      ['ppe', 'High-visibility clothing'],
    ],
    ppe: ['High-visibility clothing'],
  },
  powered_mobile_plant: {
    step: 'Work in the area where powered mobile plant moves',
    hazards: ['Being struck or crushed by moving plant', 'Plant rollover'],
    controls: [
      ['isolation', 'Separate people from plant: barriers and exclusion zones around operating plant'],
      ['engineering', 'Reversing alarms, cameras and rollover protection on plant'],
      ['administrative', 'Traffic plan for the site; spotter when reversing; operators licensed where the plant requires it'],
      ['ppe', 'High-visibility clothing'],
    ],
    ppe: ['High-visibility clothing'],
  },
  extreme_temperatures: {
    step: 'Work in the area of artificial extreme temperature',
    hazards: ['Heat stress or cold stress', 'Burns or cold burns from surfaces'],
    controls: [
      ['elimination', 'Shut down or bring the area to a normal temperature for the work where possible'],
      ['administrative', 'Limit time in the area with breaks outside; a buddy system; water available'],
      ['ppe', 'Insulated or heat-resistant clothing and gloves as the area requires'],
    ],
    ppe: ['Insulated or heat-resistant clothing and gloves'],
  },
  drowning_risk: {
    step: 'Work in or near the water',
    hazards: ['Falling into the water and drowning'],
    controls: [
      ['engineering', 'Barriers or covers at the water\'s edge'],
      ['administrative', 'Nobody works near the water alone; rescue equipment within reach'],
      ['ppe', 'Personal flotation device'],
    ],
    ppe: ['Personal flotation device'],
  },
  diving: {
    step: 'Carry out the diving work',
    hazards: ['Drowning, decompression illness, entanglement'],
    controls: [
      ['administrative', 'Dive plan; competent divers and a dive supervisor; standby diver'],
      ['ppe', 'Diving equipment suited to the work'],
    ],
    ppe: ['Diving equipment suited to the work'],
  },
}

/** Tools and tasks that add hazards whatever the category (the grinder on a roof). */
export const TASK_HAZARDS: Array<{ words: RegExp[]; template: StepTemplate }> = [
  {
    words: [/\bangle grinders?\b/, /\bgrinder\b/, /\bcut(?:ting)? (?:off )?saw\b/, /\bdrop saw\b/],
    template: {
      step: 'Cut and grind',
      hazards: ['Flying particles and sparks (eye injury, fire)', 'Kickback and contact with the disc or blade', 'Noise and dust'],
      controls: [
        ['substitution', 'Shears or nibblers instead of a grinder where the material allows'],
        ['engineering', 'Guard fitted to the grinder; the right disc for the material and speed; fire extinguisher at hand'],
        ['administrative', 'Cut away from people and flammable materials; check for fire after cutting'],
        ['ppe', 'Face shield over safety glasses, hearing protection, gloves, P2 respirator when cutting dusty material'],
      ],
      ppe: ['Face shield over safety glasses', 'Hearing protection', 'Cut-resistant gloves'],
    },
  },
  {
    words: [/\bladders?\b/],
    template: {
      step: 'Use ladders',
      hazards: ['Ladder slipping or falling'],
      controls: [
        ['engineering', 'Ladder rated for industrial use, footed or secured at the top'],
        ['administrative', 'Three points of contact; no working from the top rungs'],
      ],
      ppe: ['Non-slip safety footwear'],
    },
  },
]

/** The steps every draft starts and ends with. */
export const OPENING_STEP: StepTemplate = {
  step: 'Arrive, sign in and check the site before work starts',
  hazards: ['Site conditions that differ from what was planned (weather, access, services, other trades)'],
  controls: [
    ['administrative', 'Walk the site; check this SWMS against it with the workers; everyone signs on; stop and revise the SWMS if anything differs'],
  ],
  ppe: [],
}
export const CLOSING_STEP: StepTemplate = {
  step: 'Pack up and leave the site safe',
  hazards: ['Trip hazards and left-over materials', 'Services left isolated or live without notice'],
  controls: [
    ['administrative', 'Remove waste and tools; restore or tag out services and tell the client which are isolated'],
  ],
  ppe: [],
}
export const BASE_PPE = ['Safety footwear', 'Sun protection when working outdoors']
