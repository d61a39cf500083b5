// Which modern award a trade falls under (the three the facts name), inferred from the trade's words.
import type { AwardCode } from './schema.js'

export function awardForTrade(trade: string | null | undefined): AwardCode {
  const t = (trade ?? '').toLowerCase()
  if (/plumb|gas ?fit|drain|sprinkler/.test(t)) return 'MA000036'
  if (/electr|sparky|data cabl|solar/.test(t)) return 'MA000025'
  return 'MA000020'
}

export const factKey = (award: AwardCode) => award.toLowerCase()
