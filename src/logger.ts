import { pino, type Logger } from 'pino'

export type { Logger }

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'tradie-ops' },
    // Never log credentials, even by accident.
    redact: ['req.headers.authorization', 'api_key', 'password', '*.password', '*.api_key'],
  })
}
