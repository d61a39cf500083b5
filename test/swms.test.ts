// compliance.generate_swms through the MCP SDK client, every result checked against the tool's output
// schema (helpers/tools.ts): on the local default (no model configured) and on the OpenAI-compatible
// adapter pointed at a local chat-completions server. The stored PDF is fetched through its signed
// link, its text read with pdftotext and its pages rendered to PNG with pdftoppm (kept under
// test-results/screenshots/ for a reviewer to look at).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { startLocalChatServer, type LocalChatServer } from './helpers/chat-completions-server.js'
import { usagePeriod } from '../src/core/period.js'

const PROFILE = { plan: 'business', stripe_payment_method_id: 'pm_card_visa', trade_type: 'roofer', abn: '51 824 753 556', phone: '0412 345 678', business_name: 'High Point Roofing' }
const ROOF_JOB = 'Replace rusted roof sheets and flashings on a two-storey house. Cut the new flashing to size with an angle grinder on the roof. Live power lines run over the roof to the house.'
const HIERARCHY = ['elimination', 'substitution', 'isolation', 'engineering', 'administrative', 'ppe']
const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots')

function expectHierarchyOrder(steps: any[]) {
  for (const s of steps) {
    const levels = s.controls.map((c: any) => HIERARCHY.indexOf(c.level))
    expect(levels, s.step).toEqual([...levels].sort((a, b) => a - b))
  }
}

/** The PDF behind the signed link: its text, and its pages as PNG files named `<name>-<page>.png`. */
async function fetchPdf(app: TestApp, fileUrl: string, name: string): Promise<{ text: string; pages: string[] }> {
  const res = await fetch(fileUrl.replace(/^https?:\/\/[^/]+/, app.url))
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/application\/pdf/)
  const dir = mkdtempSync(join(tmpdir(), 'swms-'))
  try {
    const file = join(dir, 'swms.pdf')
    writeFileSync(file, Buffer.from(await res.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    mkdirSync(SCREENSHOTS, { recursive: true })
    for (const f of readdirSync(SCREENSHOTS)) if (f.startsWith(`${name}-`)) rmSync(join(SCREENSHOTS, f))
    execFileSync('pdftoppm', ['-png', '-r', '60', file, join(SCREENSHOTS, name)])
    return { text, pages: readdirSync(SCREENSHOTS).filter((f) => f.startsWith(`${name}-`)).sort() }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('on the local default (no model configured)', () => {
  let app: TestApp
  let client: Client
  beforeAll(async () => {
    app = await startTestApp()
    const company = await onboard(app, PROFILE)
    client = await connectHttp(app, company.api_key)
  })
  afterAll(async () => {
    await client?.close()
    await app?.stop()
  })

  it('a roof job at height with an angle grinder near live power: the right categories, with the words that matched', async () => {
    const s = await tool(client, 'compliance.generate_swms', { work_description: ROOF_JOB, state: 'NSW', site_address: '12 Example St, Parramatta NSW 2150', principal_contractor: 'Builder Co' })
    expect(s).toMatchObject({ status: 'draft', produced_by: 'local-default', provider_note: null, business_name: 'High Point Roofing', state: 'NSW' })
    expect(s.high_risk_work.map((c: any) => c.code)).toEqual(['fall_over_2m', 'energised_electrical'])
    const [fall, power] = s.high_risk_work
    expect(fall).toMatchObject({ paragraph: 'reg 291(a)', given: false })
    expect(fall.matched_words).toEqual(expect.arrayContaining(['roof', 'two-storey']))
    expect(power).toMatchObject({ paragraph: 'reg 291(k)' })
    expect(power.matched_words).toEqual(expect.arrayContaining(['live power', 'power lines']))
    expect(s.high_risk_work_source.source).toMatch(/model WHS Regulations reg 291/)

    expect(s.draft_notice).toMatch(/^DRAFT - must be reviewed/)
    expect(s.work_steps.map((w: any) => w.category)).toEqual([null, 'fall_over_2m', 'energised_electrical', null, null])
    expect(s.work_steps[3].step).toBe('Cut and grind')
    expect(s.work_steps.map((w: any) => w.number)).toEqual([1, 2, 3, 4, 5])
    expectHierarchyOrder(s.work_steps)
    expect(s.work_steps[1].controls[0].level).toBe('elimination')
    expect(s.ppe).toEqual(expect.arrayContaining(['Face shield over safety glasses', 'Insulated gloves rated for the work']))
    expect(s.emergency.join('\n')).toMatch(/Electric shock/)
    expect(s.emergency.join('\n')).toMatch(/suspended in a harness/)

    const people = s.people.competencies.map((c: any) => c.requirement).join('\n')
    expect(people).toMatch(/White Card.*CPCWHS1001/)
    expect(people).toMatch(/licensed electrician under NSW/)
    for (const c of [...s.people.competencies, ...s.rules]) expect(c.source.length && c.as_of.length).toBeTruthy()
    expect(s.people.not_sourced).toMatch(/not held in our sourced data/)
    expect(s.sign_off.competent_person_lines).toEqual(['Name', 'Role', 'Signature', 'Date'])
    expect(s.next_steps[0].tool).toBe('documents.auto_file')

    const pdf = await fetchPdf(app, s.document.file_url, 'swms-local')
    expect(pdf.text).toContain('DRAFT')
    expect(pdf.text).toContain('REVIEW AND SIGN-OFF BY A COMPETENT PERSON')
    expect(pdf.text).toMatch(/Name:[\s\S]*Role:[\s\S]*Signature:[\s\S]*Date:/)
    expect(pdf.text).toContain("WORKERS' SIGN-ON")
    expect(pdf.text).toContain('White Card number')
    expect(pdf.text).toContain('reg 291(k)')
    expect(pdf.text).toMatch(/\[Elimination\]/)
    expect(pdf.pages.length).toBeGreaterThanOrEqual(2)

    const [doc] = await app.owner`select document_type, media_type, match_method from documents where id = ${s.document.id}`
    expect(doc).toMatchObject({ document_type: 'swms', media_type: 'application/pdf', match_method: 'none' })
  })

  it('the same draft again stores nothing twice; a job gives the description and the address, and the document is filed on it', async () => {
    const args = { work_description: ROOF_JOB, state: 'NSW' }
    const first = await tool(client, 'compliance.generate_swms', args)
    const again = await tool(client, 'compliance.generate_swms', args)
    expect(again.document).toMatchObject({ id: first.document.id, duplicate: true })

    const [company] = await app.owner`select id from companies where business_name = 'High Point Roofing'`
    const [lead] = await app.owner`insert into leads (company_id, name, service_type, message, address) values (${company!.id}, 'Sam', 'drainage', 'Trench for stormwater pipe, 1.8 m deep, excavator on site', '3 Dig Rd, Ryde NSW') returning id`
    const [job] = await app.owner`insert into jobs (company_id, lead_id, title, status) values (${company!.id}, ${lead!.id}, 'Stormwater drain', 'Scheduled') returning id`
    const s = await tool(client, 'compliance.generate_swms', { job_id: job!.id, additional_hazards: 'Neighbour\'s dog; soft ground after rain' })
    expect(s.high_risk_work.map((c: any) => c.code)).toEqual(['trench_shaft_over_1_5m_or_tunnel', 'powered_mobile_plant'])
    expect(s).toMatchObject({ job_id: job!.id, site_address: '3 Dig Rd, Ryde NSW', title: 'Stormwater drain' })
    expect(s.work_steps.find((w: any) => w.step === 'Control the site-specific hazards').hazards).toEqual(["Neighbour's dog", 'soft ground after rain'])
    const [doc] = await app.owner`select job_id, lead_id, match_method from documents where id = ${s.document.id}`
    expect(doc).toMatchObject({ job_id: job!.id, lead_id: lead!.id, match_method: 'given' })
  })

  it('categories given are kept with no matched words; no work and no job is refused saying what to give; another company\'s job is not found', async () => {
    const s = await tool(client, 'compliance.generate_swms', { work_description: 'Install a new hot water unit', high_risk_work: ['asbestos'], state: 'VIC' })
    expect(s.high_risk_work).toEqual([expect.objectContaining({ code: 'asbestos', matched_words: [], given: true })])
    expect(s.regulations.applies).toMatch(/Occupational Health and Safety Regulations 2017 Part 5.1/)
    const missing = await toolError(client, 'compliance.generate_swms', {})
    expect(missing.error).toBe('validation_error')
    expect(missing.message).toMatch(/work_description|job_id/)
    const other = await onboard(app, { ...PROFILE, business_name: 'Other Roofing' })
    const [lead] = await app.owner`insert into leads (company_id, name) values (${other.company_id}, 'X') returning id`
    const [job] = await app.owner`insert into jobs (company_id, lead_id, title, status) values (${other.company_id}, ${lead!.id}, 'Roof', 'Scheduled') returning id`
    expect((await toolError(client, 'compliance.generate_swms', { job_id: job!.id })).error).toBe('not_found')
  })
})

describe('on the OpenAI-compatible adapter (a local chat-completions server)', () => {
  let chat: LocalChatServer
  let app: TestApp
  let client: Client
  let companyId: string
  const signOff = {
    competent_person_lines: ['Name', 'Role', 'Signature', 'Date'],
    worker_sign_on_columns: ['Name', 'White Card number', 'Signature', 'Date'],
    statement: 'I have reviewed this SWMS against the site and the work, completed it, and consulted the workers.',
  }
  const wording = (sign: unknown) => JSON.stringify({
    draft_notice: 'DRAFT - must be reviewed and signed by a competent person before work starts.',
    work_steps: [
      { category: 'fall_over_2m', step: 'Set up edge protection on the roof', hazards: ['Fall from the roof edge'], controls: [
        { level: 'ppe', measure: 'Harness where edge protection cannot be fitted' },
        { level: 'engineering', measure: 'Edge protection on all open edges' },
        { level: 'elimination', measure: 'Prefabricate flashings on the ground' },
      ] },
      { category: 'energised_electrical', step: 'Have the overhead line covered by the network operator', hazards: ['Contact with live power lines'], controls: [
        { level: 'administrative', measure: 'Safety observer while near the line' },
        { level: 'isolation', measure: 'Line de-energised or covered for the job' },
      ] },
    ],
    ...(sign === undefined ? {} : { sign_off: sign }),
  })
  beforeAll(async () => {
    chat = await startLocalChatServer()
    app = await startTestApp({ config: { LLM_BASE_URL: chat.url, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: 1000 } })
    const company = await onboard(app, PROFILE)
    companyId = company.company_id
    client = await connectHttp(app, company.api_key)
  })
  afterAll(async () => {
    await client?.close()
    await app?.stop()
    await chat?.close()
  })

  it('a good answer: the model words the steps; controls come back in hierarchy order; the PDF keeps DRAFT and the sign-off', async () => {
    chat.replies = [{ content: wording(signOff) }]
    const s = await tool(client, 'compliance.generate_swms', { work_description: ROOF_JOB, state: 'QLD' })
    expect(s).toMatchObject({ produced_by: 'model:test-model', provider_note: null })
    expect(s.work_steps[0].step).toBe('Set up edge protection on the roof')
    expect(s.work_steps[0].controls.map((c: any) => c.level)).toEqual(['elimination', 'engineering', 'ppe'])
    expectHierarchyOrder(s.work_steps)
    const sent = JSON.parse(chat.requests.at(-1)!.body.messages[1].content)
    expect(sent.high_risk_work.map((c: any) => c.code)).toEqual(['fall_over_2m', 'energised_electrical'])
    expect(s.people.competencies.map((c: any) => c.requirement).join('\n')).toMatch(/Electrical Safety Office/)
    const pdf = await fetchPdf(app, s.document.file_url, 'swms-model')
    expect(pdf.text).toContain('DRAFT')
    expect(pdf.text).toContain('REVIEW AND SIGN-OFF BY A COMPETENT PERSON')
    expect(pdf.text).toContain('Set up edge protection on the roof')
  })

  it('an answer dropping the sign-off block, or emptying it, is refused twice and the local default answers, saying why', async () => {
    chat.replies = [{ content: wording(undefined) }, { content: wording({ ...signOff, competent_person_lines: ['Name'] }) }]
    const s = await tool(client, 'compliance.generate_swms', { work_description: ROOF_JOB })
    expect(s.produced_by).toBe('local-default')
    expect(s.provider_note).toMatch(/sign.off/)
    expect(s.sign_off.competent_person_lines).toEqual(['Name', 'Role', 'Signature', 'Date'])
    expect(s.draft_notice).toMatch(/^DRAFT/)
  })

  it('an answer that strikes the DRAFT marking or a category found is refused too', async () => {
    const struck = JSON.parse(wording(signOff))
    const noDraft = JSON.stringify({ ...struck, draft_notice: 'Final SWMS, approved for use.' })
    const noPower = JSON.stringify({ ...struck, work_steps: struck.work_steps.slice(0, 1) })
    chat.replies = [{ content: noDraft }, { content: noPower }]
    const s = await tool(client, 'compliance.generate_swms', { work_description: ROOF_JOB })
    expect(s.produced_by).toBe('local-default')
    expect(s.provider_note).toMatch(/DRAFT/)
    expect(s.provider_note).toMatch(/energised_electrical/)
  })

  it('a model that times out: the local default answers, saying so', async () => {
    chat.replies = [{ delayMs: 1500, content: wording(signOff) }]
    const s = await tool(client, 'compliance.generate_swms', { work_description: ROOF_JOB })
    chat.replies = []
    expect(s.produced_by).toBe('local-default')
    expect(s.provider_note).toMatch(/time/i)
  })

  it('at the plan\'s LLM limit: isError naming the limit, the model is not asked and no document is stored', async () => {
    const [plan] = await app.owner`select llm_calls_per_month from plans where slug = 'business'`
    await app.owner`
      insert into usage_counters (company_id, period, metric, count) values (${companyId}, ${usagePeriod(new Date()).key}, 'llm_calls', ${plan!.llm_calls_per_month})
      on conflict (company_id, period, metric) do update set count = ${plan!.llm_calls_per_month}`
    const asked = chat.requests.length
    const [before] = await app.owner`select count(*)::int as n from documents where company_id = ${companyId}`
    const err = await toolError(client, 'compliance.generate_swms', { work_description: 'Fix the gutters on the roof' })
    expect(err).toMatchObject({ error: 'rate_limited', limit: { metric: 'llm_calls' } })
    expect(chat.requests.length).toBe(asked)
    const [after] = await app.owner`select count(*)::int as n from documents where company_id = ${companyId}`
    expect(after!.n).toBe(before!.n)
  })
})
