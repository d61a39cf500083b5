// Any OpenAI-compatible chat-completions endpoint (OpenAI itself, Azure-style gateways, vLLM, Ollama,
// LM Studio), through the official `openai` package. The answer must be JSON matching our schema:
// asked for with response_format json_schema (json_object where the server refuses json_schema),
// parsed and validated here; one malformed answer is asked again once, then the caller's local
// default answers and the result says why. A timeout or a failing server goes straight to the local
// default: waiting twice would only double the caller's wait.
import type OpenAI from 'openai'
import type { Static, TSchema } from 'typebox'
import { describeErrors, validatorFor } from '../../core/validation.js'
import type { Logger } from '../../logger.js'
import { localAnswerOf } from './local.js'
import type { LanguageModelProvider, ProducedBy, StructuredAnswer, StructuredRequest } from './provider.js'
import { loadOnce } from '../../core/load-once.js'

export interface OpenAiCompatibleSettings {
  baseUrl: string
  /** Local servers often need none; the package insists on a value, so a placeholder stands in. */
  apiKey: string | undefined
  model: string
  timeoutMs: number
  logger?: Logger
}

type Attempt<V> = { ok: true; value: V } | { ok: false; why: string; retry: boolean }

// The SDK is large: loaded on the first request (not when this module is imported), then cached.
const loadOpenAI = loadOnce(() => import('openai'))

const plainSchema = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema))

/** The schema's name as response_format allows it: a-z, A-Z, 0-9, _ and -, at most 64 characters. */
const formatName = (purpose: string) => purpose.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)

export class OpenAiCompatibleModel implements LanguageModelProvider {
  readonly name: ProducedBy
  readonly usesModel = true
  /** The client, made on first use. */
  private readonly openai = loadOnce(async (): Promise<OpenAI> => new (await loadOpenAI()).default({
    baseURL: this.settings.baseUrl,
    apiKey: this.settings.apiKey ?? 'not-needed',
    timeout: this.settings.timeoutMs,
    // Our own policy below decides what is tried again; the package's retries would multiply the wait.
    maxRetries: 0,
  }))
  /** Set once the server has refused json_schema: later calls ask for json_object straight away. */
  private jsonObjectOnly = false

  constructor(private readonly settings: OpenAiCompatibleSettings) {
    this.name = `model:${settings.model}`
  }

  async generate<T extends TSchema>(request: StructuredRequest<T>): Promise<StructuredAnswer<Static<T>>> {
    const first = await this.attempt(request)
    if (first.ok) return { value: first.value, producedBy: this.name, note: null }
    if (!first.retry) return this.fallBack(request, first.why)
    const second = await this.attempt(request)
    if (second.ok) return { value: second.value, producedBy: this.name, note: null }
    return this.fallBack(request, `${first.why}; asked again: ${second.why}`)
  }

  private fallBack<T extends TSchema>(request: StructuredRequest<T>, why: string): StructuredAnswer<Static<T>> {
    this.settings.logger?.warn({ purpose: request.purpose, model: this.settings.model, why }, 'language model not used; local default answered')
    return localAnswerOf(request, `The configured model (${this.settings.model}) was not used: ${why}. The local default (rules and templates) answered instead.`)
  }

  private async attempt<T extends TSchema>(request: StructuredRequest<T>): Promise<Attempt<Static<T>>> {
    let content: string | null | undefined
    try {
      content = await this.complete(request)
    } catch (err) {
      return { ok: false, why: await this.describeFailure(err), retry: false }
    }
    if (!content) return { ok: false, why: 'the model returned no content', retry: true }
    let parsed: unknown
    try {
      parsed = JSON.parse(content)
    } catch {
      return { ok: false, why: 'the model\'s answer was not JSON', retry: true }
    }
    if (!validatorFor(request.schema).Check(parsed)) {
      const problems = describeErrors(request.schema, parsed).slice(0, 5).join('; ')
      return { ok: false, why: `the model's answer did not match the schema (${problems})`, retry: true }
    }
    const broken = request.check?.(parsed as Static<T>)
    if (broken) return { ok: false, why: `the model's answer broke a rule: ${broken}`, retry: true }
    return { ok: true, value: parsed as Static<T> }
  }

  private async complete<T extends TSchema>(request: StructuredRequest<T>): Promise<string | null | undefined> {
    const schema = plainSchema(request.schema)
    const messages = [
      { role: 'system' as const, content: `${request.system}\n\nAnswer with one JSON object only, matching this JSON schema:\n${JSON.stringify(schema)}` },
      { role: 'user' as const, content: request.user },
    ]
    const [client, { BadRequestError }] = await Promise.all([this.openai(), loadOpenAI()])
    const ask = (format: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming['response_format']) =>
      client.chat.completions.create({ model: this.settings.model, messages, response_format: format })
    if (!this.jsonObjectOnly) {
      try {
        const res = await ask({ type: 'json_schema', json_schema: { name: formatName(request.purpose), schema, strict: false } })
        return res.choices[0]?.message?.content
      } catch (err) {
        // Many compatible servers know only json_object; a 400 naming response_format says so.
        if (!(err instanceof BadRequestError) || !/response_format|json_schema/i.test(err.message)) throw err
        this.jsonObjectOnly = true
      }
    }
    const res = await ask({ type: 'json_object' })
    return res.choices[0]?.message?.content
  }

  private async describeFailure(err: unknown): Promise<string> {
    // A package that failed to load is itself the failure: describe it, the local default still answers.
    const sdkLoaded = await loadOpenAI().catch(() => null)
    if (!sdkLoaded) return `the request failed (${err instanceof Error ? err.message : String(err)})`
    const { APIConnectionTimeoutError, APIError } = sdkLoaded
    if (err instanceof APIConnectionTimeoutError) return `no answer within ${this.settings.timeoutMs} ms (LLM_TIMEOUT_MS)`
    if (err instanceof APIError && err.status !== undefined) return `the model server answered HTTP ${err.status}`
    if (err instanceof APIError) return 'the model server could not be reached'
    return `the request failed (${err instanceof Error ? err.message : String(err)})`
  }
}
