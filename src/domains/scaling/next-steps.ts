// What follows a readiness score: the tool that closes the weakest gap, and where the stage stands.
import { steps, type NextStep } from '../../core/next-steps.js'

interface Scored { factors: { factor: string; score_points: number; weight: number }[] }

const TOOL_FOR: Record<string, NextStep> = {
  revenue_growth: { tool: 'marketing.strategy', why: 'Revenue growth is the weakest factor: plan the channels that bring more of your best work.' },
  margin: { tool: 'analytics.financials', why: 'Margin is the weakest factor: see where the money goes over the last months.' },
  cash_collection: { tool: 'cashflow.forecast', why: 'Cash collection is the weakest factor: see what is owed and when it should arrive.' },
  win_rate: { tool: 'marketing.strategy', why: 'Win rate is the weakest factor: see which lead sources you win and which you lose.' },
  jobs_invoiced: { tool: 'invoicing.generate', why: 'Some completed jobs are not invoiced: invoice them.' },
}

export function afterReadinessScore(output: Scored): NextStep[] {
  const weakest = [...output.factors].sort((a, b) => a.score_points / a.weight - b.score_points / b.weight)[0]
  return steps(
    weakest && weakest.score_points < weakest.weight && TOOL_FOR[weakest.factor],
    { tool: 'lifecycle.assess', why: 'See the stage the business is in and what moves it to the next.' },
  )
}
