// The company's profile as the simulation and location tools read it (RLS: only the caller's row).
import type postgres from 'postgres'

export interface AdvisoryCompany {
  trade_type: string | null
  state: string | null
}

export async function findAdvisoryCompany(tx: postgres.TransactionSql): Promise<AdvisoryCompany> {
  const [row] = await tx<AdvisoryCompany[]>`select trade_type, state from companies`
  return row ?? { trade_type: null, state: null }
}
