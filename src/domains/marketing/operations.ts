import type { AnyOperation } from '../../core/operation.js'
import { defineOperation } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { generateContent } from './content.js'
import { ContentInput, ContentResponse, StrategyInput, StrategyResponse } from './schema.js'
import { marketingStrategy } from './strategy.js'

const access = { scope: 'leads', permission: 'read' } as const
const MODEL = "Written by the configured language model, or by the local default's rules and templates when none is configured or it fails (produced_by says which; a model call counts toward the plan's monthly LLM limit)."

export const marketingOperations: AnyOperation[] = [
  defineOperation({
    name: 'marketing.strategy',
    domain: 'marketing',
    title: 'Marketing strategy',
    description:
      "Marketing plan for the business from its trade, service area, budget and lead history: which channels to use, budget split, a 90-day plan and the reasoning. Uses the company's own lead sources and win rates (12 months); every figure says where it came from, and no market figure without a dated source is shown. " +
      `${MODEL} Advice only; nothing is published.`,
    input: StrategyInput,
    output: StrategyResponse,
    access,
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/marketing/strategy' },
    run: (ctx, input) => marketingStrategy(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'marketing.generate_content',
    domain: 'marketing',
    title: 'Generate marketing content',
    description:
      'Write marketing copy: social and Google Business Profile posts, emails, SMS, website and ad copy, review requests and replies. ' +
      'SMS and email drafts carry the sender and an opt-out (Spam Act); review requests ask every client whatever their experience and disclose any incentive (ACCC). ' +
      `${MODEL} Returns drafts only; nothing is published or sent.`,
    input: ContentInput,
    output: ContentResponse,
    access,
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/marketing/content' },
    run: (ctx, input) => generateContent(ctx.deps, ctx.principal!, input),
  }),
]
