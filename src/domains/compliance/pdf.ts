// The SWMS draft as an A4 PDF, drawn with pdfkit's built-in Helvetica like the invoice (no fonts read
// from disk). Every page carries the DRAFT marking; the sign-off block and the workers' sign-on table
// close the document. The creation date is fixed to the day it was prepared, so the same draft gives
// the same bytes, and a retried call finds the document it already stored.
import type PDFDocument from 'pdfkit'
import type { Static } from 'typebox'
import { formatAbn } from '../onboarding/abn.js'
import type { SwmsResponse } from './schema.js'
import { loadOnce } from '../../core/load-once.js'

export type SwmsDraft = Omit<Static<typeof SwmsResponse>, 'document'>
type Pdf = InstanceType<typeof PDFDocument>

// Loaded on the first render, not at start: pdfkit is a large share of the API's heap.
const loadPdfKit = loadOnce(() => import('pdfkit'))

const MARGIN = 50
const FOOTER_ROOM = 30
const INK = '#1b1b1b'
const MUTED = '#555555'
const RULE = '#9aa0a6'
const RED = '#b91c1c'
const SIGN_ON_ROWS = 6

const width = (pdf: Pdf) => pdf.page.width - MARGIN * 2
const bottom = (pdf: Pdf) => pdf.page.height - pdf.page.margins.bottom
const levelLabel = (level: string) => (level === 'ppe' ? 'PPE' : level[0]!.toUpperCase() + level.slice(1))

function ensureSpace(pdf: Pdf, height: number): void {
  if (pdf.y + height > bottom(pdf)) pdf.addPage()
}

function heading(pdf: Pdf, text: string): void {
  ensureSpace(pdf, 40)
  pdf.moveDown(0.8)
  pdf.font('Helvetica-Bold').fontSize(11).fillColor(INK).text(text.toUpperCase(), MARGIN, pdf.y, { characterSpacing: 0.4 })
  pdf.moveTo(MARGIN, pdf.y + 2).lineTo(MARGIN + width(pdf), pdf.y + 2).strokeColor(RULE).lineWidth(0.5).stroke()
  pdf.moveDown(0.4)
}

function para(pdf: Pdf, text: string, options: { bold?: boolean; size?: number; color?: string; indent?: number } = {}): void {
  const indent = options.indent ?? 0
  pdf.font(options.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(options.size ?? 9.5).fillColor(options.color ?? INK)
    .text(text, MARGIN + indent, pdf.y, { width: width(pdf) - indent })
}

const bullets = (pdf: Pdf, items: string[], indent = 10) => items.forEach((i) => para(pdf, `-  ${i}`, { indent }))

function drawTitle(pdf: Pdf, d: SwmsDraft): void {
  pdf.font('Helvetica-Bold').fontSize(20).fillColor(INK).text('Safe Work Method Statement', MARGIN, MARGIN)
  pdf.font('Helvetica-Bold').fontSize(20).fillColor(RED).text('DRAFT', MARGIN, MARGIN, { width: width(pdf), align: 'right' })
  pdf.moveDown(0.3)
  const top = pdf.y
  pdf.rect(MARGIN, top, width(pdf), 34).fillColor('#fdecec').fill()
  pdf.font('Helvetica-Bold').fontSize(9.5).fillColor(RED).text(d.draft_notice, MARGIN + 8, top + 6, { width: width(pdf) - 16 })
  pdf.y = top + 42
  const facts: Array<[string, string | null]> = [
    ['Business', d.abn ? `${d.business_name} (ABN ${formatAbn(d.abn)})` : d.business_name], ['Work', d.title], ['Site', d.site_address],
    ['State', d.state], ['Principal contractor', d.principal_contractor], ['Job', d.job_id ?? '(no job linked)'], ['Prepared', d.prepared_on],
  ]
  for (const [label, value] of facts) {
    const y = pdf.y
    pdf.font('Helvetica-Bold').fontSize(9.5).fillColor(MUTED).text(label, MARGIN, y, { width: 120 })
    pdf.font('Helvetica').fillColor(INK).text(value ?? '(to be completed)', MARGIN + 125, y, { width: width(pdf) - 125 })
  }
  para(pdf, `Regulations: ${d.regulations.applies}`, { size: 8.5, color: MUTED })
}

function drawCategories(pdf: Pdf, d: SwmsDraft): void {
  heading(pdf, 'High-risk construction work (reg 291)')
  if (d.high_risk_work.length === 0) para(pdf, 'None found in the work described. The competent person confirms whether any applies.')
  for (const c of d.high_risk_work) {
    const why = c.given ? 'named by the requester' : `matched: ${c.matched_words.map((w) => `"${w}"`).join(', ')}`
    para(pdf, `${c.paragraph}: ${c.description} (${why})`)
  }
  para(pdf, `Source: ${d.high_risk_work_source.source}; ${d.high_risk_work_source.as_of}.`, { size: 8, color: MUTED })
}

function drawSteps(pdf: Pdf, d: SwmsDraft): void {
  heading(pdf, 'Work steps, hazards and controls')
  para(pdf, `Controls are listed in the hierarchy of control: ${d.hierarchy_of_control.map(levelLabel).join(', ')}.`, { size: 8.5, color: MUTED })
  for (const s of d.work_steps) {
    ensureSpace(pdf, 70)
    pdf.moveDown(0.4)
    para(pdf, `${s.number}. ${s.step}`, { bold: true })
    para(pdf, 'Hazards', { bold: true, size: 8.5, color: MUTED, indent: 10 })
    bullets(pdf, s.hazards, 16)
    para(pdf, 'Controls', { bold: true, size: 8.5, color: MUTED, indent: 10 })
    bullets(pdf, s.controls.map((c) => `[${levelLabel(c.level)}] ${c.measure}`), 16)
  }
}

function drawLists(pdf: Pdf, d: SwmsDraft): void {
  heading(pdf, 'Personal protective equipment')
  bullets(pdf, d.ppe)
  heading(pdf, 'Emergency')
  bullets(pdf, d.emergency)
  heading(pdf, 'People and competencies')
  for (const c of d.people.competencies) {
    bullets(pdf, [c.requirement])
    para(pdf, `Source: ${c.source}; ${c.as_of}.`, { size: 8, color: MUTED, indent: 16 })
  }
  bullets(pdf, [d.people.not_sourced])
  heading(pdf, 'SWMS rules')
  for (const r of d.rules) {
    bullets(pdf, [r.requirement])
    para(pdf, `Source: ${r.source}; ${r.as_of}.`, { size: 8, color: MUTED, indent: 16 })
  }
}

function signLine(pdf: Pdf, label: string, x: number, y: number, w: number): void {
  pdf.font('Helvetica').fontSize(9.5).fillColor(INK).text(`${label}:`, x, y, { width: 70, lineBreak: false })
  pdf.moveTo(x + 72, y + 11).lineTo(x + w, y + 11).strokeColor(INK).lineWidth(0.7).stroke()
}

function drawSignOff(pdf: Pdf, d: SwmsDraft): void {
  const columns = d.sign_off.worker_sign_on_columns
  ensureSpace(pdf, 150 + (SIGN_ON_ROWS + 1) * 20)
  heading(pdf, 'Review and sign-off by a competent person')
  para(pdf, d.sign_off.statement)
  pdf.moveDown(0.6)
  const half = width(pdf) / 2 - 10
  const lines = d.sign_off.competent_person_lines
  for (let i = 0; i < lines.length; i += 2) {
    const y = pdf.y
    signLine(pdf, lines[i]!, MARGIN, y, half)
    if (lines[i + 1]) signLine(pdf, lines[i + 1]!, MARGIN + half + 20, y, half)
    pdf.y = y + 24
  }
  heading(pdf, "Workers' sign-on")
  para(pdf, 'I have read this SWMS (or had it explained), understand it and will follow it.', { size: 9 })
  pdf.moveDown(0.4)
  const colWidth = width(pdf) / columns.length
  let y = pdf.y
  columns.forEach((c, i) => pdf.font('Helvetica-Bold').fontSize(9).fillColor(INK).text(c, MARGIN + i * colWidth + 4, y + 5, { width: colWidth - 8, lineBreak: false }))
  for (let row = 0; row <= SIGN_ON_ROWS; row++) {
    for (let i = 0; i < columns.length; i++) pdf.rect(MARGIN + i * colWidth, y, colWidth, 20).strokeColor(INK).lineWidth(0.5).stroke()
    y += 20
  }
  pdf.y = y
}

function drawFooters(pdf: Pdf, d: SwmsDraft): void {
  const range = pdf.bufferedPageRange()
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i)
    const bottomMargin = pdf.page.margins.bottom
    pdf.page.margins.bottom = 0
    const label = `DRAFT SWMS - not for use until reviewed and signed · ${d.business_name} · Page ${i - range.start + 1} of ${range.count}`
    pdf.font('Helvetica').fontSize(8).fillColor(RED).text(label, MARGIN, pdf.page.height - MARGIN + 10, { width: width(pdf), align: 'center', lineBreak: false })
    pdf.page.margins.bottom = bottomMargin
  }
}

export async function renderSwmsPdf(d: SwmsDraft): Promise<Buffer> {
  const { default: PDFDocument } = await loadPdfKit()
  const pdf = new PDFDocument({
    size: 'A4', margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_ROOM }, bufferPages: true, lang: 'en-AU', displayTitle: true,
    info: { Title: `DRAFT Safe Work Method Statement: ${d.title}`, Author: d.business_name, Subject: 'Draft SWMS: must be reviewed and signed by a competent person', CreationDate: new Date(`${d.prepared_on}T00:00:00Z`) },
  })
  const chunks: Buffer[] = []
  const finished = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk))
    pdf.on('end', () => resolve(Buffer.concat(chunks)))
    pdf.on('error', reject)
  })
  drawTitle(pdf, d)
  drawCategories(pdf, d)
  drawSteps(pdf, d)
  drawLists(pdf, d)
  drawSignOff(pdf, d)
  drawFooters(pdf, d)
  pdf.end()
  return finished
}

/** The draft as plain text: the stored document's searchable text. */
export function swmsText(d: SwmsDraft): string {
  return [
    'Safe Work Method Statement - DRAFT', d.draft_notice, d.title, d.site_address ?? '',
    ...d.high_risk_work.map((c) => `${c.paragraph}: ${c.description}`),
    ...d.work_steps.flatMap((s) => [`${s.number}. ${s.step}`, ...s.hazards, ...s.controls.map((c) => `${c.level}: ${c.measure}`)]),
    'Review and sign-off by a competent person', ...d.sign_off.competent_person_lines,
  ].filter(Boolean).join('\n')
}
