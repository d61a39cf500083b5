/** Polls fn until ok(value) or the timeout; returns the last value either way (the caller asserts). */
export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (ok(v) || Date.now() > deadline) return v
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
