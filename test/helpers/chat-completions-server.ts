// A local HTTP server speaking OpenAI's POST /v1/chat/completions as the openai package calls it.
// Each request takes the next scripted reply from `replies` (or `fallback` when the script is
// used up): a content string, a delay past the client's timeout, or an HTTP error. Requests are
// kept (body and authorization header) for the test to inspect.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ChatReply =
  | { content: string }
  | { delayMs: number; content: string }
  | { status: number; message: string }

export interface LocalChatServer {
  /** The base URL to configure as LLM_BASE_URL, ending in /v1. */
  url: string
  replies: ChatReply[]
  fallback: ChatReply
  requests: { body: any; authorization: string | undefined }[]
  close(): Promise<void>
}

export async function startLocalChatServer(): Promise<LocalChatServer> {
  const chat: LocalChatServer = { url: '', replies: [], fallback: { status: 500, message: 'no reply scripted' }, requests: [], close: async () => {} }
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => { raw += c })
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }))
        return
      }
      const body = JSON.parse(raw)
      chat.requests.push({ body, authorization: req.headers.authorization })
      const reply = chat.replies.shift() ?? chat.fallback
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: reply.message, type: 'invalid_request_error', param: null, code: null } }))
        return
      }
      if ('delayMs' in reply) await new Promise((r) => setTimeout(r, reply.delayMs))
      if (res.destroyed) return
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id: `chatcmpl-${chat.requests.length}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: reply.content, refusal: null } }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  chat.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  chat.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()) })
  return chat
}
