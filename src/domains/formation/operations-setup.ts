// The setup tools (issue 26): requirements, checklist, guided setup and trade recommendation. Each
// reads the company's profile and answers from cited facts (src/facts); nothing is registered.
import type { AnyOperation } from '../../core/operation.js'
import { defineOperation } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { steps } from '../../core/next-steps.js'
import { formatWholeDollars } from './setup-items.js'
import { factValue } from '../../facts/facts.js'
import { formationChecklist } from './checklist.js'
import { guidedSetup } from './guided-setup.js'
import { recommendTrade } from './recommend-trade.js'
import { formationRequirements } from './requirements.js'
import {
  ChecklistInput, ChecklistResponse, GuidedSetupInput, GuidedSetupResponse, RecommendTradeInput, RecommendTradeResponse, RequirementsInput, RequirementsResponse,
} from './setup-schema.js'

const access = { permission: 'read' } as const
// Figures in the descriptions come from the facts too, so a new figure changes them with the data.
const GST_THRESHOLD = formatWholeDollars(factValue('gst.registration_threshold'))
const GST_DAYS = factValue('gst.registration_days')
const NSW_LICENCE = formatWholeDollars(factValue('licence.nsw.contractor_threshold'))
const RECORD_YEARS = factValue('setup.record_keeping_years')
const SOURCED = 'Figures cite dated facts (source, as-of; unconfirmed, past or future ones say so); general information, not advice. Free.'

export const formationSetupOperations: AnyOperation[] = [
  defineOperation({
    name: 'formation.guided_setup',
    domain: 'formation',
    title: 'Guided business setup',
    description:
      `Step-by-step plan to set up a trade business in an Australian state, from the answers given and the company's profile: structure, ABN, business name (ASIC), the state's trade licence and home-warranty insurance, GST (register within ${GST_DAYS} days of reaching ${GST_THRESHOLD} turnover), BAS, PAYG withholding before first wages, and record keeping. ` +
      `Each step is done (e.g. ABN recorded in the profile), next, to do or optional. Nothing is registered. ${SOURCED}`,
    input: GuidedSetupInput,
    output: GuidedSetupResponse,
    access,
    cost: 'free',
    annotations: READ,
    rest: { method: 'POST', path: '/formation/guided-setup' },
    run: (ctx, input) => guidedSetup(ctx.deps, ctx.principal!, input),
    nextSteps: (out, input) => steps(
      { tool: 'formation.checklist', why: `Track every task, grouped, with when each is due${out.state ? ` (state ${out.state})` : ''}.` },
      !out.state && { tool: 'formation.requirements', why: 'Give state to see the state licence and home-warranty thresholds.' },
      input.plans_employees === true && { tool: 'hiring.compliance_checklist', why: 'Before the first hire: the employer obligations in full.' },
    ),
  }),
  defineOperation({
    name: 'formation.recommend_trade',
    domain: 'formation',
    title: 'Recommend a trade',
    description:
      "Recommend trades to start a business in (electrical, plumbing and gasfitting, carpentry and building, air conditioning and refrigeration), scored 0 to 100 factor by factor from the person's skills, qualifications and licences held, and preferences, with the reasons and the licensing path in their state. " +
      `Startup cost and local demand are reported as not scored where no dated figures are held. ${SOURCED}`,
    input: RecommendTradeInput,
    output: RecommendTradeResponse,
    access,
    cost: 'free',
    annotations: READ,
    rest: { method: 'POST', path: '/formation/recommend-trade' },
    run: (ctx, input) => recommendTrade(ctx.deps, ctx.principal!, input),
    nextSteps: (out) => steps(
      { tool: 'formation.requirements', why: `See everything ${out.recommendations[0]!.trade.toLowerCase()} needs${out.state ? ` in ${out.state}` : ' (give state)'}: licences, insurance, registrations.` },
    ),
  }),
  defineOperation({
    name: 'formation.requirements',
    domain: 'formation',
    title: 'Licences and registrations required',
    description:
      `Licences, registrations and insurance a trade needs in a state: ABN, business name, GST at ${GST_THRESHOLD} turnover, the regulator and licence thresholds (e.g. a NSW contractor licence for all electrical wiring and residential building work over ${NSW_LICENCE}, QBCC, Energy Safe Victoria), home-warranty insurance thresholds, ARCtick licences for refrigeration and air conditioning, and the White Card (CPCWHS1001). ${SOURCED}`,
    input: RequirementsInput,
    output: RequirementsResponse,
    access,
    cost: 'free',
    annotations: READ,
    rest: { method: 'POST', path: '/formation/requirements' },
    run: (ctx, input) => formationRequirements(ctx.deps, ctx.principal!, input),
    nextSteps: (out) => steps(
      { tool: 'formation.guided_setup', why: 'Turn these into numbered steps, with what is done and what is next.' },
      !out.state && { tool: 'formation.requirements', why: 'Call again with state for the state licence and home-warranty thresholds.' },
    ),
  }),
  defineOperation({
    name: 'formation.checklist',
    domain: 'formation',
    title: 'Setup checklist',
    description:
      `Checklist of every task to set up and run a trade business legally, grouped by registration, tax, licensing, insurance, employment and operations, each with when it is due (e.g. the quarterly BAS due dates; keep records ${RECORD_YEARS} years) and whether the company's data shows it done (ABN in the profile). ${SOURCED}`,
    input: ChecklistInput,
    output: ChecklistResponse,
    access,
    cost: 'free',
    annotations: READ,
    rest: { method: 'POST', path: '/formation/checklist' },
    run: (ctx, input) => formationChecklist(ctx.deps, ctx.principal!, input),
    nextSteps: (out, input) => steps(
      out.done_count < out.total_count && { tool: 'formation.guided_setup', why: 'See the tasks in order, with the next one to do.' },
      input.plans_employees === true && { tool: 'hiring.compliance_checklist', why: 'Before the first hire: the employer obligations in full.' },
    ),
  }),
]
