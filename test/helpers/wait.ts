/**
 * Polls fn until ok(value), and returns that value. Past the timeout it throws with the last value
 * seen: a wait that silently gave up let tests pass without the thing they waited for (a skipped
 * second fire in automations-client went unnoticed for weeks, costing 15 s a run).
 */
export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (ok(v)) return v
    if (Date.now() > deadline) throw new Error(`waitFor: not met within ${timeoutMs} ms; last value: ${describe(v)}`)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

function describe(value: unknown): string {
  try {
    return (JSON.stringify(value, (_, v: unknown) => (v instanceof Set ? [...v] : v)) ?? String(value)).slice(0, 1000)
  } catch {
    return String(value)
  }
}
