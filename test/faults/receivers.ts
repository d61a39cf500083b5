// The outside world of the fault suite, each counting what it receives by the id that makes a
// message the same message: a webhook receiver (webhook-id, signature verified), an SMTP server
// (Message-ID) and an SMS provider (Twilio's idempotency token, test/helpers/twilio-server.ts).
// The webhook receiver and the SMTP server can be taken down and brought back on the same port.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { Webhook } from 'standardwebhooks'
import { freePort } from '../helpers/local-server.js'

/** How long after its answer a delivery may still be unrecorded by the service (its result write). */
const RECORDING_WINDOW_MS = 2000

/** The ids that arrived in the RECORDING_WINDOW_MS before now: sends a crash now may leave unrecorded. */
export const arrivedJustBefore = (ids: string[], arrivals: number[], now = Date.now()) =>
  ids.filter((_, i) => arrivals[i]! >= now - RECORDING_WINDOW_MS)

/** Occurrences of each id. */
export const countIds = (ids: string[]) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>())
/** How many arrivals repeated an id already seen. */
export const repeats = (ids: string[]) => ids.length - new Set(ids).size

export interface WebhookReceiver {
  url: string
  /** The subscription's signing secret (known once it is created). */
  secret: string
  /** webhook-id of every request, in order of arrival (repeats included). */
  ids: string[]
  /** When each of `ids` arrived (ms since the epoch). */
  arrivals: number[]
  /** Requests whose signature did not verify. */
  badSignatures: string[]
  /**
   * webhook-ids a fault may have cut mid-call: open at the receiver when it happened, or answered
   * within RECORDING_WINDOW_MS before it (the service may not have recorded the answer yet).
   */
  cut: Set<string>
  /** Marks a fault: the deliveries in flight now join `cut`. */
  fault(): void
  down(): Promise<void>
  up(): Promise<void>
  close(): Promise<void>
}

/** delayMs: how long each answer takes, so that deliveries are in flight when a fault hits. */
export async function startWebhookReceiver(delayMs: number): Promise<WebhookReceiver> {
  const port = await freePort()
  const open = new Set<string>()
  const answered: { id: string; at: number }[] = []
  const self: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    secret: '',
    ids: [],
    arrivals: [],
    badSignatures: [],
    cut: new Set(),
    fault() {
      for (const id of open) self.cut.add(id)
      const since = Date.now() - RECORDING_WINDOW_MS
      for (const a of answered) if (a.at >= since) self.cut.add(a.id)
    },
    down: async () => {
      self.fault()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: async () => {
      if (!server.listening) return
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const id = String(req.headers['webhook-id'])
      const body = Buffer.concat(chunks).toString('utf8')
      try {
        new Webhook(self.secret).verify(body, req.headers as Record<string, string>)
      } catch {
        self.badSignatures.push(id)
        return void res.writeHead(401).end('bad signature')
      }
      // Counted on arrival: a request whose answer never reaches the service still reached us.
      self.ids.push(id)
      self.arrivals.push(Date.now())
      open.add(id)
      res.on('finish', () => answered.push({ id, at: Date.now() }))
      res.on('close', () => open.delete(id))
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), delayMs)
    })
  })
  await self.up()
  return self
}

export interface SmtpReceiver {
  url: string
  /** Message-ID of every message accepted, in order (repeats included). */
  messageIds: string[]
  /** When each of `messageIds` arrived (ms since the epoch). */
  arrivals: number[]
  down(): Promise<void>
  up(): Promise<void>
  close(): Promise<void>
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const port = await freePort()
  const messageIds: string[] = []
  const arrivals: number[] = []
  const make = () => new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Taken down means down: open sessions are cut at once, not after smtp-server's 30 s grace.
    closeTimeout: 50,
    onData(stream, _session, callback) {
      let raw = ''
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')))
      stream.on('end', () => {
        const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ')
        messageIds.push(/^message-id:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? '(none)')
        arrivals.push(Date.now())
        callback()
      })
    },
  })
  let server: SMTPServer | null = null
  const up = async () => {
    const next = make()
    await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve))
    server = next
  }
  const down = async () => {
    const current = server
    server = null
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()))
  }
  await up()
  const address = (server!.server.address() as AddressInfo).port
  return { url: `smtp://127.0.0.1:${address}?ignoreTLS=true`, messageIds, arrivals, up, down, close: down }
}
