// The per-key burst limit on its own, with a clock the test moves: the window, the refusal and its
// Retry-After, a new window after 60 s, keys counted apart.
import { describe, expect, it } from 'vitest'
import { KeyRateLimiter } from '../src/core/auth.js'
import { AppError } from '../src/core/errors.js'

describe('KeyRateLimiter', () => {
  it('allows perMinute requests per key in a 60 s window from its first, then refuses until the window ends', () => {
    let now = 1_000_000
    const limiter = new KeyRateLimiter(3, () => now)
    expect([1, 2, 3].map(() => limiter.consume('a').remaining)).toEqual([2, 1, 0])
    expect(limiter.consume('b')).toEqual({ limit: 3, remaining: 2, resetSeconds: 60 })
    now += 20_500
    let refused: unknown
    try {
      limiter.consume('a')
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(AppError)
    const err = refused as AppError
    expect(err.code).toBe('rate_limited')
    expect(err.body()).toMatchObject({ retry_after_seconds: 40 })
    expect(err.headers).toMatchObject({ 'RateLimit-Remaining': '0', 'RateLimit-Reset': '40' })
    now += 39_500 // the window of 'a' ends exactly now
    expect(limiter.consume('a')).toEqual({ limit: 3, remaining: 2, resetSeconds: 60 })
  })

  it('forgets ended windows, so a key unused for a minute takes no memory', () => {
    let now = 0
    const limiter = new KeyRateLimiter(10, () => now)
    for (let i = 0; i < 1000; i++) limiter.consume(`key-${i}`)
    now += 61_000
    limiter.consume('fresh')
    expect(limiter.counter.keys).toBe(1)
  })
})
