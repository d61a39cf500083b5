// A real SMTP server (smtp-server) for tests: it accepts every message, or rejects recipients
// matching `reject`, and keeps each message's envelope and raw MIME text. The MIME is read with a
// small parser here (mailparser is not installed): headers, and the text/plain and text/html parts
// decoded from quoted-printable or base64.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
}

export interface LocalSmtp {
  url: string
  received: ReceivedMail[]
  close(): Promise<void>
}

export async function startLocalSmtp(options: { reject?: RegExp } = {}): Promise<LocalSmtp> {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (options.reject?.test(address.address)) {
        const error = new Error('5.1.1 No such user here') as Error & { responseCode: number }
        error.responseCode = 550
        return callback(error)
      }
      callback()
    },
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')))
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return { url: `smtp://127.0.0.1:${port}?ignoreTLS=true`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

function splitHeaders(block: string): { headers: Map<string, string>; body: string } {
  const at = block.search(/\r?\n\r?\n/)
  const head = at === -1 ? block : block.slice(0, at)
  const body = at === -1 ? '' : block.slice(at).replace(/^\r?\n\r?\n/, '')
  const headers = new Map<string, string>()
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body }
}

function decode(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding?.toLowerCase() === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`)
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'))
  }
  return body
}

export interface ParsedMail {
  headers: Map<string, string>
  text: string | null
  html: string | null
}

/** The message's headers and its text and HTML parts (multipart/alternative or mixed, one level deep or nested). */
export function parseMail(raw: string): ParsedMail {
  const top = splitHeaders(raw)
  const out: ParsedMail = { headers: top.headers, text: null, html: null }
  const walk = (headers: Map<string, string>, body: string) => {
    const type = headers.get('content-type') ?? 'text/plain'
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1]
    if (type.toLowerCase().startsWith('multipart/') && boundary) {
      for (const part of body.split(`--${boundary}`).slice(1)) {
        if (part.startsWith('--')) break
        const p = splitHeaders(part.replace(/^\r?\n/, ''))
        walk(p.headers, p.body)
      }
      return
    }
    const decoded = decode(body, headers.get('content-transfer-encoding'))
    if (type.toLowerCase().startsWith('text/plain')) out.text ??= decoded
    else if (type.toLowerCase().startsWith('text/html')) out.html ??= decoded
  }
  walk(top.headers, top.body)
  return out
}
