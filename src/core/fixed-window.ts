// Requests counted per key in fixed windows held in this process's memory: a window starts with a
// key's first request and lasts windowMs, and refused requests count too (as rate-limiter-flexible's
// memory limiter counted them, which this replaced). Synchronous: a Map lookup per call, no
// promise, no timer per key. Used for the per-key burst limit and onboarding's per-address limit.
export interface WindowHit {
  allowed: boolean
  /** Requests still allowed in this window (0 once refused). */
  remaining: number
  /** Milliseconds until this window ends. */
  msLeft: number
}

export class FixedWindowCounter {
  private readonly windows = new Map<string, { endsAt: number; used: number }>()
  private nextSweep = 0

  constructor(readonly points: number, readonly windowMs: number, private readonly now: () => number = Date.now) {}

  /** Counts one request for key. */
  hit(key: string): WindowHit {
    const now = this.now()
    this.sweep(now)
    let window = this.windows.get(key)
    if (!window || window.endsAt <= now) {
      window = { endsAt: now + this.windowMs, used: 0 }
      this.windows.set(key, window)
    }
    window.used++
    return { allowed: window.used <= this.points, remaining: Math.max(0, this.points - window.used), msLeft: window.endsAt - now }
  }

  /** Keys with a window held (ended ones go at the next sweep). */
  get keys(): number {
    return this.windows.size
  }

  /** Forgets ended windows, at most once per window length, so keys no longer used take no memory. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return
    this.nextSweep = now + this.windowMs
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key)
  }
}
