// What an MCP tool call costs in wallet credit, by its cost class (SPEC 8, "MCP tool call cost":
// reads about 0.01, writes about 0.05 dollars of credit; discovery, formation, billing and wallet
// tools are free, which their definitions say with cost 'free').
import type { CostClass } from '../../core/cost.js'

export const PRICE_CENTS: Record<CostClass, number> = { free: 0, read: 1, write: 5 }
