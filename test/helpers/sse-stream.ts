// A raw legacy-SSE client: opens GET /api/v1/mcp/sse and reads its events one by one, so tests can
// see exactly what arrives on a stream (and that nothing else does).
import type { TestApp } from './app.js'

export interface SseEvent {
  event: string
  data: string
}

export interface OpenStream {
  /** The POST path from the endpoint event. */
  path: string
  sessionId: string
  /** The next event (keep-alive comments skipped); null if none arrives within timeoutMs. */
  nextEvent(timeoutMs?: number): Promise<SseEvent | null>
  close(): void
}

/** Opens a stream with `key` (if any); throws with the status when the server refuses it. */
export async function openStream(app: Pick<TestApp, 'url'>, key?: string, query = ''): Promise<OpenStream> {
  const controller = new AbortController()
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {}
  const res = await fetch(`${app.url}/api/v1/mcp/sse${query}`, { signal: controller.signal, headers })
  if (res.status !== 200) {
    controller.abort()
    throw Object.assign(new Error(`SSE open refused: ${res.status}`), { status: res.status })
  }
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  // A read that lost a race against the timeout is kept for the next call, so no bytes are lost.
  let pending: ReturnType<typeof reader.read> | null = null

  const takeEvent = (): SseEvent | null => {
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end < 0) return null
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      if (block.startsWith(':')) continue // keep-alive comment
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
      const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')
      return { event, data }
    }
  }

  const nextEvent = async (timeoutMs = 10_000): Promise<SseEvent | null> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const ready = takeEvent()
      if (ready) return ready
      pending ??= reader.read()
      const left = deadline - Date.now()
      if (left <= 0) return null
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left)))
      const outcome = await Promise.race([pending, timeout])
      clearTimeout(timer)
      if (outcome === 'timeout') return null
      pending = null
      if (outcome.done) throw new Error('stream closed')
      buffer += decoder.decode(outcome.value, { stream: true })
    }
  }

  const endpoint = await nextEvent()
  if (endpoint?.event !== 'endpoint') throw new Error(`expected the endpoint event first, got ${JSON.stringify(endpoint)}`)
  const sessionId = new URL(endpoint.data, app.url).searchParams.get('session_id')!
  return { path: endpoint.data, sessionId, nextEvent, close: () => controller.abort() }
}
