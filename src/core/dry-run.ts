// A dry run of an action that has to write before it can say what it would send (invoicing.generate
// needs its invoice's number and due date): the action runs in full inside its transaction, then
// throws RollBack with its answer, so the transaction rolls back (nothing written, counted, queued
// or emitted) and rolledBack hands the answer out.

export class RollBack<T> extends Error {
  constructor(readonly result: T) {
    super('dry run: rolled back')
  }
}

/** Runs `action`; a RollBack thrown inside it (after its transaction rolled back) becomes its result. */
export async function rolledBack<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action()
  } catch (error) {
    if (error instanceof RollBack) return error.result as T
    throw error
  }
}
