/** Time source. Production uses the wall clock; tests move time forward to cross period boundaries. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

export class ManualClock implements Clock {
  constructor(private current: Date = new Date()) {}
  now(): Date {
    return new Date(this.current)
  }
  set(date: Date): void {
    this.current = date
  }
}
