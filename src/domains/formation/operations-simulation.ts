// formation.simulate_business, formation.demand_hotspots and formation.location_score (issue 26):
// advice from cited facts and the company's own figures; nothing is changed. Free, as every
// formation tool is (SPEC 8).
import type { AnyOperation } from '../../core/operation.js'
import { defineOperation } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { steps } from '../../core/next-steps.js'
import { demandHotspots, locationScore } from './location.js'
import { simulateBusiness } from './simulate-business.js'
import { HotspotsInput, HotspotsResponse, LocationInput, LocationResponse, SimulateInput, SimulateResponse } from './simulation-schema.js'

const common = { domain: 'formation', access: { permission: 'read' }, cost: 'free', annotations: READ, capability: 'Business advisory' } as const
const CITED = 'Facts cited. Free.'

export const formationSimulationOperations: AnyOperation[] = [
  defineOperation({
    ...common,
    name: 'formation.simulate_business',
    title: 'Simulate business finances',
    description:
      'Monthly revenue, costs, super, profit, cash, break-even and GST registration month from rate, hours and costs; company tax only (individual rates not held). ' +
      CITED,
    input: SimulateInput,
    output: SimulateResponse,
    run: (ctx, input) => simulateBusiness(ctx.deps, ctx.principal!, input),
    nextSteps: (output, input) => steps(
      (input.employees ?? 0) + (input.apprentices ?? 0) > 0 && { tool: 'hiring.cost_calculator', why: 'Check the wages you gave against the award minimum and add payroll tax and workers\' compensation for your state.' },
      output.gst.registration_month !== null && { tool: 'formation.checklist', why: `GST registration falls due in month ${output.gst.registration_month}: see it with the other setup tasks (registered_for_gst).` },
      { tool: 'formation.requirements', why: 'See the licences and insurance your trade needs in your state, and price the insurance into monthly_insurance.' },
    ),
  }),
  defineOperation({
    ...common,
    name: 'formation.demand_hotspots',
    title: 'Demand hotspots',
    description:
      "Suburbs ranked 0-100 by the company's own leads, win rate and won value (12 months); no public figures held. " +
      CITED,
    input: HotspotsInput,
    output: HotspotsResponse,
    run: (ctx, input) => demandHotspots(ctx.deps, ctx.principal!, input),
    nextSteps: (output) => steps(
      output.hotspots[0] && { tool: 'formation.location_score', why: `Score ${output.hotspots[0].suburb} with your travel time (suburb "${output.hotspots[0].suburb}", travel_minutes).` },
      output.hotspots.length === 0 && { tool: 'leads.create', why: 'Record the suburb on each new lead so demand can be ranked by suburb.' },
    ),
  }),
  defineOperation({
    ...common,
    name: 'formation.location_score',
    title: 'Score a location',
    description:
      "Score a suburb 0-100 by factor: the company's leads, win rate and won value there (12 months), and travel. " +
      CITED,
    input: LocationInput,
    output: LocationResponse,
    run: (ctx, input) => locationScore(ctx.deps, ctx.principal!, input),
    nextSteps: (output) => steps(
      output.score === null && { tool: 'leads.create', why: 'Record the suburb on each new lead so locations can be scored from your own work.' },
      output.score !== null && { tool: 'formation.demand_hotspots', why: 'Compare this suburb with the others your leads come from.' },
    ),
  }),
]
