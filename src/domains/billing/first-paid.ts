// The hook point for "the company's first paid period was settled": called once per company, inside
// the transaction that records the processor's first invoice.paid for a paid plan (so whatever it
// writes commits or rolls back with that event, and a replayed event never calls it again).
// Deliberately a no-op here: the referrals work fills it in to credit both companies' wallets.
import type postgres from 'postgres'

/** `eventRef` names the settling payment (provider:invoice id), to key any credit it gives. */
export async function onFirstPaidPeriod(_tx: postgres.TransactionSql, _companyId: string, _eventRef: string): Promise<void> {
  // Nothing yet (see above).
}
