// The ten catalogue trades and the words callers use for them: "Plumber", "air conditioning",
// "refrigeration" and "HVAC" all mean the catalogue's trade. Anything else is kept as written
// (trimmed, lower case), so a company's own trade words still filter its own items.
import { TRADES, type CatalogueTrade } from './catalogue/families.js'

const ALIASES: Record<string, CatalogueTrade> = {
  plumber: 'plumbing',
  electrician: 'electrical', electric: 'electrical', sparky: 'electrical',
  carpenter: 'carpentry', joinery: 'carpentry', joiner: 'carpentry',
  'air conditioning': 'hvac', 'air conditioning and refrigeration': 'hvac', 'hvac/refrigeration': 'hvac', 'hvac and refrigeration': 'hvac',
  refrigeration: 'hvac', aircon: 'hvac', 'air-conditioning': 'hvac', 'refrigeration and air conditioning': 'hvac',
  roofer: 'roofing', roof: 'roofing', 'roof plumbing': 'roofing',
  painter: 'painting', 'painting and decorating': 'painting',
  tiler: 'tiling', tile: 'tiling',
  landscaper: 'landscaping', landscape: 'landscaping', gardening: 'landscaping',
  gasfitter: 'gas', 'gas fitting': 'gas', gasfitting: 'gas', 'gas fitter': 'gas',
  drainer: 'drainage', drains: 'drainage', 'drain plumbing': 'drainage',
}

export function normaliseTrade(trade: string): string {
  const words = trade.trim().toLowerCase().replace(/\s+/g, ' ')
  if ((TRADES as readonly string[]).includes(words)) return words
  return ALIASES[words] ?? words
}

export const TRADE_LIST = TRADES.join(', ')
