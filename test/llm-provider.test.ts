// The language-model provider against a local server speaking the chat-completions API: a good
// answer, a timeout, a malformed answer asked again then falling back to the local default, a server
// without json_schema, and the plan's monthly LLM limit (429 over REST, isError over MCP, as for SMS).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Type from 'typebox'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { OpenAiCompatibleModel } from '../src/providers/llm/openai-compatible.js'
import type { StructuredRequest } from '../src/providers/llm/provider.js'
import { usagePeriod } from '../src/core/period.js'
import { loadConfig } from '../src/config.js'
import { createLanguageModel } from '../src/providers/index.js'
import { startLocalChatServer, type LocalChatServer } from './helpers/chat-completions-server.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

const Answer = Type.Object({ headline: Type.String({ minLength: 1 }), points: Type.Array(Type.String(), { minItems: 1 }) }, { additionalProperties: false })
const request = (extra: Partial<StructuredRequest<typeof Answer>> = {}): StructuredRequest<typeof Answer> => ({
  purpose: 'test.answer', system: 'Be brief.', user: 'Say something.', schema: Answer,
  localAnswer: () => ({ headline: 'local', points: ['from the template'] }), ...extra,
})
const good = { content: JSON.stringify({ headline: 'from the model', points: ['one'] }) }

let chat: LocalChatServer
beforeAll(async () => {
  chat = await startLocalChatServer()
})
afterAll(() => chat?.close())

describe('choosing the provider from configuration', () => {
  it('no model configured: the local default, which answers with the template and calls nothing', async () => {
    const llm = createLanguageModel(loadConfig({}))
    expect(llm).toMatchObject({ name: 'local-default', usesModel: false })
    expect(await llm.generate(request())).toEqual({ value: { headline: 'local', points: ['from the template'] }, producedBy: 'local-default', note: null })
  })

  it('a model name selects the adapter; a URL or key without one refuses to start', () => {
    expect(createLanguageModel(loadConfig({ LLM_MODEL: 'gpt-test', LLM_BASE_URL: 'http://127.0.0.1:1/v1' }))).toMatchObject({ name: 'model:gpt-test', usesModel: true })
    expect(() => createLanguageModel(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1' }))).toThrow(/need LLM_MODEL/)
  })
})

describe('the OpenAI-compatible adapter', () => {
  const model = () => new OpenAiCompatibleModel({ baseUrl: chat.url, apiKey: 'sk-test', model: 'test-model', timeoutMs: 400 })
  const fresh = (...replies: LocalChatServer['replies']) => {
    chat.requests.length = 0
    chat.replies = replies
  }

  it('returns a good answer validated against the schema, produced by the model, asked with json_schema', async () => {
    fresh(good)
    const answer = await model().generate(request())
    expect(answer).toEqual({ value: { headline: 'from the model', points: ['one'] }, producedBy: 'model:test-model', note: null })
    expect(chat.requests).toHaveLength(1)
    const sent = chat.requests[0]!
    expect(sent.authorization).toBe('Bearer sk-test')
    expect(sent.body.model).toBe('test-model')
    expect(sent.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'test_answer', schema: { required: ['headline', 'points'] } } })
    expect(sent.body.messages.map((m: any) => m.role)).toEqual(['system', 'user'])
  })

  it('on a timeout answers with the local default at once, saying why, and asks no second time', async () => {
    fresh({ delayMs: 1500, ...good })
    const started = Date.now()
    const answer = await model().generate(request())
    expect(Date.now() - started).toBeLessThan(1400)
    expect(answer.producedBy).toBe('local-default')
    expect(answer.value).toEqual({ headline: 'local', points: ['from the template'] })
    expect(answer.note).toMatch(/test-model.*no answer within 400 ms \(LLM_TIMEOUT_MS\).*local default/)
    expect(chat.requests).toHaveLength(1)
  })

  it('asks once more after a malformed answer and uses the second when it is good', async () => {
    fresh({ content: 'Sure! Here is your JSON: {headline:' }, good)
    const answer = await model().generate(request())
    expect(answer.producedBy).toBe('model:test-model')
    expect(chat.requests).toHaveLength(2)
  })

  it('falls back to the local default after two malformed answers (not JSON, then the wrong shape), saying so', async () => {
    fresh({ content: 'not json' }, { content: JSON.stringify({ headline: '', points: [] }) })
    const answer = await model().generate(request())
    expect(answer.producedBy).toBe('local-default')
    expect(answer.note).toMatch(/not JSON; asked again: .*did not match the schema/)
    expect(chat.requests).toHaveLength(2)
  })

  it('treats an answer breaking a rule the schema cannot say like a malformed one', async () => {
    fresh({ content: JSON.stringify({ headline: 'Save 40%', points: ['x'] }) }, { content: JSON.stringify({ headline: 'Save 40%', points: ['x'] }) })
    const answer = await model().generate(request({ check: (v) => (/%/.test(v.headline) ? 'a percentage nobody gave' : null) }))
    expect(answer.producedBy).toBe('local-default')
    expect(answer.note).toMatch(/broke a rule: a percentage nobody gave/)
  })

  it('asks for json_object when the server refuses json_schema, and keeps doing so', async () => {
    fresh({ status: 400, message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." }, good, good)
    const m = model()
    expect((await m.generate(request())).producedBy).toBe('model:test-model')
    expect((await m.generate(request())).producedBy).toBe('model:test-model')
    expect(chat.requests.map((r) => r.body.response_format.type)).toEqual(['json_schema', 'json_object', 'json_object'])
  })

  it('a failing server (HTTP 500) gives the local default, naming the status', async () => {
    fresh({ status: 500, message: 'overloaded' })
    const answer = await model().generate(request())
    expect(answer.producedBy).toBe('local-default')
    expect(answer.note).toMatch(/HTTP 500/)
  })
})

describe('model calls and the plan\'s monthly LLM limit', () => {
  let app: TestApp
  let client: Client
  let company: Awaited<ReturnType<typeof onboard>>
  let limit: number
  const used = async () => {
    const [row] = await app.owner`select count from usage_counters where company_id = ${company.company_id} and period = ${usagePeriod(new Date()).key} and metric = 'llm_calls'`
    return row?.count ?? 0
  }
  const setUsed = (count: number) => app.owner`
    insert into usage_counters (company_id, period, metric, count) values (${company.company_id}, ${usagePeriod(new Date()).key}, 'llm_calls', ${count})
    on conflict (company_id, period, metric) do update set count = ${count}`
  const drafts = (n: number) => ({ content: JSON.stringify({ drafts: Array.from({ length: n }, (_, i) => ({ subject: null, body: `Winter hot water checks, draft ${i + 1}.` })) }) })

  beforeAll(async () => {
    app = await startTestApp({ config: { LLM_BASE_URL: chat.url, LLM_API_KEY: 'sk-test', LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: 400 } })
    company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', trade_type: 'plumber' })
    client = await connectHttp(app, company.api_key)
    const [plan] = await app.owner`select llm_calls_per_month from plans where slug = 'business'`
    limit = plan!.llm_calls_per_month
  })
  afterAll(async () => {
    await client?.close()
    await app?.stop()
  })

  it('a call the model answers counts one LLM call; one the local default answers after a failure counts none', async () => {
    chat.replies = [drafts(1)]
    const before = await used()
    const answered = await tool(client, 'marketing.generate_content', { content_type: 'social_post', topic: 'winter hot water checks' })
    expect(answered.produced_by).toBe('model:test-model')
    expect(await used()).toBe(before + 1)
    chat.replies = [{ content: 'nope' }, { content: 'still nope' }]
    const fellBack = await tool(client, 'marketing.generate_content', { content_type: 'social_post', topic: 'winter hot water checks' })
    expect(fellBack.produced_by).toBe('local-default')
    expect(fellBack.provider_note).toMatch(/test-model/)
    expect(await used()).toBe(before + 1)
  })

  it('at the limit: MCP isError and REST 429 name the limit, its reset and the upgrade, and the model is not asked', async () => {
    await setUsed(limit)
    chat.requests.length = 0
    const mcp = await toolError(client, 'marketing.generate_content', { content_type: 'sms_promo', topic: 'gutter clean' })
    const reset = usagePeriod(new Date()).end.toISOString()
    expect(mcp).toMatchObject({
      error: 'rate_limited',
      limit: { metric: 'llm_calls', used: limit, limit, plan: 'business', resets_at: reset, upgrade_plan: null },
    })
    expect(mcp.message).toMatch(new RegExp(`No model was called.*Monthly LLM-call limit reached: ${limit} of ${limit} on the business plan\\. It resets at ${reset.replace(/\./g, '\\.')}\\. This is the highest plan`))
    const rest = await app.call('POST', '/api/v1/marketing/strategy', { key: company.api_key, body: { goals: ['more_leads'] } })
    expect(rest.status).toBe(429)
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(rest.body).toMatchObject({ error: 'rate_limited', limit: { metric: 'llm_calls', limit } })
    expect(chat.requests).toHaveLength(0)
    expect(await used()).toBe(limit)
  })

  it('concurrent calls at the edge: exactly the calls left are answered by the model, the rest refused', async () => {
    await setUsed(limit - 3)
    chat.requests.length = 0
    chat.replies = []
    chat.fallback = drafts(1)
    const results = await Promise.all(Array.from({ length: 8 }, () => client.callTool({ name: 'marketing.generate_content', arguments: { topic: 'blocked drains' } })))
    chat.fallback = { status: 500, message: 'no reply scripted' }
    expect(results.filter((r) => !r.isError)).toHaveLength(3)
    expect(results.filter((r) => r.isError).map((r: any) => r.structuredContent.error)).toEqual(Array(5).fill('rate_limited'))
    expect(chat.requests).toHaveLength(3)
    expect(await used()).toBe(limit)
  })
})
