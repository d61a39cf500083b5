// What a call costs in wallet credit, by class. Its own file because both an operation (its cost)
// and Deps (the credit meter that charges it) name it, and operation.ts already imports Deps.
import { formatCents } from './money.js'

export type CostClass = 'free' | 'read' | 'write'

/**
 * An MCP tool call's price by cost class (SPEC 8, "MCP tool call cost": reads about 0.01, writes
 * about 0.05 dollars of credit; discovery, formation, billing and wallet tools are free, which their
 * definitions say with cost 'free'). Charged by domains/wallet/meter.ts.
 */
export const PRICE_CENTS: Record<CostClass, number> = { free: 0, read: 1, write: 5 }

/** The prices as every message and description states them, written from PRICE_CENTS. */
export const PRICES_IN_WORDS = `reads ${formatCents(PRICE_CENTS.read)}, writes ${formatCents(PRICE_CENTS.write)}; discovery, billing and wallet tools free`
