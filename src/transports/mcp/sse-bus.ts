// Routes legacy-SSE responses between API instances. The instance holding a stream registers the
// session in mcp_sse_sessions and LISTENs on channel mcp_sse; an instance receiving a POST for a
// session it does not hold runs the request itself and NOTIFYs the response, split into chunks
// (NOTIFY payloads are limited to 8000 bytes), all sent in one transaction so they arrive together.
import { randomBytes } from 'node:crypto'
import type { Db } from '../../db/sql.js'
import type { Logger } from '../../logger.js'

/**
 * Who opened a stream: only that same key (so that same company) may post into it. The shared
 * registry stores the key id alone: a key belongs to one company, and a company id there would make
 * mcp_sse_sessions look like tenant data, which this cross-tenant routing table is not.
 */
export interface SseOwner {
  keyId: string
  /** Known on the instance holding the stream. */
  companyId?: string
}

const CHANNEL = 'mcp_sse'
const CHUNK = 6000 // base64 characters per notification, well under the limit

interface Chunk {
  s: string // session id
  m: string // message id
  i: number // chunk index
  n: number // chunk count
  d: string // base64 slice
}

export class SseBus {
  readonly instanceId = randomBytes(8).toString('hex')
  private readonly partial = new Map<string, string[]>()
  private unlisten: (() => Promise<void>) | null = null

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    /** Writes a complete message to a local stream; false when the session is not here. */
    private readonly deliverLocal: (sessionId: string, message: string) => boolean,
    private readonly aliveMs: number,
  ) {}

  async start(): Promise<void> {
    const { unlisten } = await this.db.listener.listen(CHANNEL, (payload) => this.onNotify(payload))
    this.unlisten = unlisten
  }

  async stop(): Promise<void> {
    await this.unlisten?.()
    await this.db.app`delete from mcp_sse_sessions where instance_id = ${this.instanceId}`.catch(() => {})
  }

  register(sessionId: string, owner: SseOwner): Promise<unknown> {
    return this.db.app`
      insert into mcp_sse_sessions (id, instance_id, key_id)
      values (${sessionId}, ${this.instanceId}, ${owner.keyId})`
  }

  unregister(sessionId: string): Promise<unknown> {
    return this.db.app`delete from mcp_sse_sessions where id = ${sessionId}`.catch(() => {})
  }

  touch(sessionIds: string[]): Promise<unknown> {
    if (!sessionIds.length) return Promise.resolve()
    return this.db.app`update mcp_sse_sessions set last_seen = now() where id = any(${sessionIds})`.catch(() => {})
  }

  /** The owner of a session open on some instance (seen recently); null when none is. */
  async ownerOf(sessionId: string): Promise<SseOwner | null> {
    const [row] = await this.db.app<{ key_id: string | null }[]>`
      select key_id from mcp_sse_sessions
      where id = ${sessionId} and last_seen > now() - ${`${this.aliveMs} milliseconds`}::interval`
    // A row without an owner was opened by an older release: nobody may post into it.
    return row?.key_id ? { keyId: row.key_id } : null
  }

  async publish(sessionId: string, message: string): Promise<void> {
    const data = Buffer.from(message, 'utf8').toString('base64')
    const id = randomBytes(8).toString('hex')
    const n = Math.max(1, Math.ceil(data.length / CHUNK))
    await this.db.app.begin(async (tx) => {
      for (let i = 0; i < n; i++) {
        const chunk: Chunk = { s: sessionId, m: id, i, n, d: data.slice(i * CHUNK, (i + 1) * CHUNK) }
        await tx`select pg_notify(${CHANNEL}, ${JSON.stringify(chunk)})`
      }
    })
  }

  private onNotify(payload: string): void {
    let chunk: Chunk
    try {
      chunk = JSON.parse(payload) as Chunk
    } catch {
      return
    }
    const parts = this.partial.get(chunk.m) ?? new Array<string>(chunk.n)
    parts[chunk.i] = chunk.d
    if (parts.filter((p) => p !== undefined).length < chunk.n) {
      this.partial.set(chunk.m, parts)
      return
    }
    this.partial.delete(chunk.m)
    const message = Buffer.from(parts.join(''), 'base64').toString('utf8')
    // Every instance hears every notification; only the holder has the stream.
    if (this.deliverLocal(chunk.s, message)) this.logger.debug({ session: chunk.s }, 'SSE message routed from another instance')
  }
}
