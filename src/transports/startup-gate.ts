// The server listens before the app exists (with PORT=0 the public URLs need the real port), so a
// request can arrive in between. Node leaves a request with no 'request' listener unanswered for
// good: a health probe or client that connects during startup would hang. The gate holds such
// requests and hands them to the app the moment it is attached.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'

export interface StartupGate {
  /** Register as the server's only 'request' listener, before listen(). */
  listener: RequestListener
  /** The app is ready: held requests go to it now, later ones directly. */
  open(app: RequestListener): void
}

export function startupGate(): StartupGate {
  let app: RequestListener | null = null
  const held: Array<[IncomingMessage, ServerResponse]> = []
  return {
    listener(req, res) {
      if (app) app(req, res)
      else held.push([req, res])
    },
    open(ready) {
      app = ready
      for (const [req, res] of held.splice(0)) ready(req, res)
    },
  }
}
