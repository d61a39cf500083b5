// workflows.search_ads_pipeline, and the ad spend record it reports from
// (POST|GET /ad-spend). The input schema is the spec's, unchanged from when it was a planned tool.
import { afterAdSpend } from '../engine/next-steps.js'
import Type from 'typebox'
import { READ, WRITE } from '../../../core/annotations.js'
import { defineOperation, AGENT_PARITY } from '../../../core/operation.js'
import { Dollars } from '../../../core/schema-helpers.js'
import { closed } from '../../shared-schema.js'
import {
  AdSpendListResponse, AdSpendResponse, AdsPipelineOutput, adsPipeline, ListAdSpendInput, listAdSpend, RecordAdSpendInput, recordAdSpend,
} from './ads-pipeline.js'
import { defineFeature } from '../engine/catalogue.js'

const domain = 'workflows'
const financials = (permission: 'read' | 'write') => ({ scope: 'financials' as const, permission })

const reportingOperations = [
  defineOperation({
    name: 'workflows.search_ads_pipeline', domain, title: 'Search-ads lead pipeline',
    description:
      'Report on leads from paid search ads through the pipeline (lead, quote, job, revenue) by source and campaign, with cost per lead, per won job and return on ad spend. A lead\'s campaign is its source written "<source>:<campaign>" (google_ads:spring-promo). Spend comes from what the company recorded (workflows.record_ad_spend) for the days of the period, or from ad_spend when given (for the whole selection).',
    input: Type.Object(
      {
        days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30, description: 'Lookback period in days (default 30)' })),
        campaign: Type.Optional(Type.String({ description: 'Only this campaign (lead source)' })),
        ad_spend: Type.Optional(Dollars('incl', { minimum: 0, description: 'Ad spend over the period as paid, for cost per lead and return' })),
      },
      closed,
    ),
    output: AdsPipelineOutput,
    access: { permission: 'read' }, cost: 'read', annotations: READ,
    run: (ctx, input) => adsPipeline(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'workflows.record_ad_spend', domain, title: 'Record ad spend',
    description:
      'Record what the company spent on ads for a lead source (and campaign) over a period, for workflows.search_ads_pipeline. A period that straddles a report\'s window counts for the days they share.',
    input: RecordAdSpendInput, output: AdSpendResponse, access: financials('write'), cost: 'write', annotations: WRITE, beyondSpec: AGENT_PARITY,
    rest: { method: 'POST', path: '/ad-spend', status: 201, feature: 'restWrite' },
    nextSteps: afterAdSpend,
    run: (ctx, input) => recordAdSpend(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'workflows.list_ad_spend', domain, title: 'List ad spend',
    description: 'The ad spend the company recorded, latest periods first; filter by source and by the days a period touches.',
    input: ListAdSpendInput, output: AdSpendListResponse, access: financials('read'), cost: 'read', annotations: READ, beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/ad-spend' },
    run: (ctx, input) => listAdSpend(ctx.deps, ctx.principal!, input),
  }),
]

/** Reports computed on request: nothing to turn on or off. */
export const reportsFeature = defineFeature({ name: 'reports', automations: [], operations: reportingOperations })
