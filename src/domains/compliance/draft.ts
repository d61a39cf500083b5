// The local default's SWMS wording from rules and templates, the parts only rules write (PPE,
// emergency steps, people), and the check a model's wording must pass: it keeps the DRAFT marking and
// the sign-off block, covers every category found and no other. Controls are put in hierarchy order
// whoever wrote them.
import type { Static } from 'typebox'
import { BASE_PPE, CATEGORY_STEPS, CLOSING_STEP, HIERARCHY, OPENING_STEP, TASK_HAZARDS, type StepTemplate } from './category-controls.js'
import type { DetectedCategory, HrcwCode } from './hrcw.js'
import type { SwmsWording } from './schema.js'

type Wording = Static<typeof SwmsWording>
type Step = Wording['work_steps'][number]

export const DRAFT_NOTICE = 'DRAFT - must be reviewed, completed and signed by a competent person before work starts. Do not start the high-risk work on this draft.'
export const SIGN_OFF: Wording['sign_off'] = {
  competent_person_lines: ['Name', 'Role', 'Signature', 'Date'],
  worker_sign_on_columns: ['Name', 'White Card number', 'Signature', 'Date'],
  statement: 'I have reviewed this SWMS against the site and the work, completed it, and consulted the workers who will do the work.',
}

const stepOf = (t: StepTemplate, category: HrcwCode | null): Step =>
  ({ category, step: t.step, hazards: [...t.hazards], controls: t.controls.map(([level, measure]) => ({ level, measure })) })

const matches = (text: string, words: RegExp[]) => words.some((w) => w.test(text.toLowerCase()))

/** Site-specific hazards as the caller listed them (one per line or separated by semicolons). */
export const listedHazards = (text: string | undefined) => (text ?? '').split(/[\n;]+/).map((h) => h.trim()).filter((h) => h.length >= 3)

export function localWording(description: string, categories: DetectedCategory[], additionalHazards: string[]): Wording {
  const steps = [stepOf(OPENING_STEP, null)]
  // Isolation and access steps come before the tasks they make safe.
  for (const c of categories) steps.push(stepOf(CATEGORY_STEPS[c.code], c.code))
  for (const task of TASK_HAZARDS) if (matches(description, task.words)) steps.push(stepOf(task.template, null))
  if (additionalHazards.length > 0) {
    steps.push({
      category: null, step: 'Control the site-specific hazards', hazards: additionalHazards.slice(0, 12),
      controls: [{ level: 'administrative', measure: 'The competent person sets a control for each site-specific hazard, highest in the hierarchy that is reasonably practicable, with the workers before work starts' }],
    })
  }
  steps.push(stepOf(CLOSING_STEP, null))
  return { draft_notice: DRAFT_NOTICE, work_steps: steps, sign_off: SIGN_OFF }
}

/** Each step's controls in hierarchy order (stable within a level). */
export function inHierarchyOrder(steps: Step[]): Step[] {
  return steps.map((s) => ({ ...s, controls: [...s.controls].sort((a, b) => HIERARCHY.indexOf(a.level) - HIERARCHY.indexOf(b.level)) }))
}

/** Why a model's wording cannot be used, or null. */
export function wordingBreaksStructure(w: Wording, categories: DetectedCategory[]): string | null {
  if (!w.draft_notice.includes('DRAFT') || !/review/i.test(w.draft_notice)) return 'the draft notice must keep the word DRAFT and say the SWMS must be reviewed before work starts'
  const lines = new Set(w.sign_off.competent_person_lines)
  const columns = new Set(w.sign_off.worker_sign_on_columns)
  const missing = [...SIGN_OFF.competent_person_lines.filter((l) => !lines.has(l)), ...SIGN_OFF.worker_sign_on_columns.filter((c) => !columns.has(c))]
  if (missing.length > 0 || w.sign_off.statement.trim().length < 20) return `the sign-off block must be kept intact (missing: ${missing.join(', ') || 'the statement'})`
  const found = new Set(categories.map((c) => c.code))
  const covered = new Set(w.work_steps.map((s) => s.category).filter((c): c is HrcwCode => c !== null))
  const uncovered = [...found].filter((c) => !covered.has(c))
  if (uncovered.length > 0) return `every high-risk work category found needs a step with its hazards and controls (none for ${uncovered.join(', ')})`
  const extra = [...covered].filter((c) => !found.has(c))
  if (extra.length > 0) return `steps may only control the categories found (${extra.join(', ')} was not)`
  return null
}

export function ppeFor(description: string, categories: DetectedCategory[]): string[] {
  const items = [...BASE_PPE, ...categories.flatMap((c) => CATEGORY_STEPS[c.code].ppe)]
  for (const task of TASK_HAZARDS) if (matches(description, task.words)) items.push(...task.template.ppe)
  return [...new Set(items)]
}

const EMERGENCY_BY_CATEGORY: Partial<Record<HrcwCode, string>> = {
  fall_over_2m: 'Fall or a worker suspended in a harness: rescue them without delay using the rescue plan and equipment on site; do not leave a suspended worker hanging while waiting for help.',
  energised_electrical: 'Electric shock: do not touch the person until the supply is isolated or they are moved clear with a non-conductive object; call 000, start CPR if they are not breathing, and use a defibrillator if one is available.',
  confined_space: 'Confined space: the standby person raises the alarm and rescues from outside with the retrieval equipment; nobody enters without the breathing protection the rescue plan names.',
  asbestos: 'Asbestos disturbed unexpectedly: stop work, leave and close off the area, and get a licensed assessor before anyone re-enters.',
  pressurised_gas_mains: 'Gas escape: isolate the supply if safe, remove ignition sources, evacuate upwind and call the gas network emergency line and 000.',
  trench_shaft_over_1_5m_or_tunnel: 'Trench collapse: call 000; do not enter an unsupported trench to rescue.',
}

export function emergencySteps(categories: DetectedCategory[]): string[] {
  return [
    'Stop work and make the area safe; call 000 for police, fire or ambulance.',
    'First aid: a first aid kit on site and a trained first aider named here: ____________________',
    'Nearest hospital or medical centre (fill in before work starts): ____________________',
    'Assembly point (fill in before work starts): ____________________',
    ...categories.map((c) => EMERGENCY_BY_CATEGORY[c.code]).filter((s): s is string => Boolean(s)),
    'Report the incident to the supervisor; a notifiable incident is reported to the WHS regulator and the site left undisturbed.',
  ]
}
