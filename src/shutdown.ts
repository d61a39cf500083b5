import type { Logger } from './logger.js'

/** Stops cleanly on SIGINT/SIGTERM (second signal forces exit). */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false
  const handler = (signal: string) => {
    if (stopping) process.exit(1)
    stopping = true
    logger.info({ signal }, 'shutting down')
    stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
}
