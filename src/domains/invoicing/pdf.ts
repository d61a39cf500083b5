// The invoice as an A4 PDF: an Australian tax invoice (or adjustment note) drawn with pdfkit's
// built-in Helvetica, so nothing is read from disk or the network and the same document gives the
// same bytes (pdfkit derives the file ID from the creation date, which we fix to the issue date).
import type PDFDocument from 'pdfkit'
import type { InvoiceDocument, InvoiceLine, Party } from './document.js'
import { formatAbn } from '../onboarding/abn.js'
import { formatDollars } from '../../core/money.js'
import { longLocalDate, zonedToInstant } from '../../core/zoned-time.js'
import { loadOnce } from '../../core/load-once.js'

type Pdf = InstanceType<typeof PDFDocument>

// Loaded on the first render, not at start: pdfkit is a large share of the API's heap.
const loadPdfKit = loadOnce(() => import('pdfkit'))

type Align = 'left' | 'right'

const quantityFormat = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 3 })
const percentFormat = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 2 })
/** A calendar date (YYYY-MM-DD) as written; an instant (voided at) as the day it was in the seller's zone. */
const formatInvoiceDate = (iso: string, doc: InvoiceDocument): string => longLocalDate(iso, doc.timeZone)


const MARGIN = 50
// Room kept under the content for the page footer (drawn last, once the page count is known).
const FOOTER_ROOM = 30
const INK = '#1b1b1b'
const MUTED = '#555555'
const RULE = '#d9dce1'
const LINK = '#0b5cad'

interface Column { title: string; width: number; align: Align; cell: (line: InvoiceLine) => string }
const COLUMNS: Column[] = [
  { title: 'Description', width: 200, align: 'left', cell: (l) => l.description },
  { title: 'Qty', width: 40, align: 'right', cell: (l) => quantityFormat.format(l.quantity) },
  { title: 'Unit price (ex GST)', width: 100, align: 'right', cell: (l) => formatDollars(l.unitPrice) },
  { title: 'GST', width: 70, align: 'right', cell: (l) => formatDollars(l.gst) },
  { title: 'Amount (ex GST)', width: 85, align: 'right', cell: (l) => formatDollars(l.total) },
]
const CELL_PADDING = 4

const contentWidth = (pdf: Pdf) => pdf.page.width - MARGIN * 2
const contentBottom = (pdf: Pdf) => pdf.page.height - pdf.page.margins.bottom

/** Starts a new page when `height` more points would not fit on this one; returns the y to draw at. */
function ensureSpace(pdf: Pdf, height: number): number {
  if (pdf.y + height > contentBottom(pdf)) pdf.addPage()
  return pdf.y
}

function heading(pdf: Pdf, text: string, x = MARGIN, y = pdf.y): void {
  pdf.font('Helvetica-Bold').fontSize(9).fillColor(MUTED).text(text.toUpperCase(), x, y, { characterSpacing: 0.5 })
  pdf.fillColor(INK)
}

function documentTitle(doc: InvoiceDocument): string {
  return doc.invoice.kind === 'credit_note' ? 'Adjustment note' : 'Tax invoice'
}

function drawTitle(pdf: Pdf, doc: InvoiceDocument): void {
  const { invoice } = doc
  pdf.font('Helvetica-Bold').fontSize(26).fillColor(INK).text(documentTitle(doc), MARGIN, MARGIN)
  if (invoice.kind === 'credit_note') pdf.font('Helvetica').fontSize(11).fillColor(MUTED).text('(credit note)')
  const underTitle = pdf.y
  // A stamp on the right of the title: a voided invoice must not be mistaken for a bill to pay.
  const stamp = invoice.status === 'Void' ? { text: 'VOID', color: '#b91c1c' } : invoice.status === 'Paid' ? { text: 'PAID', color: '#15803d' } : null
  if (stamp) {
    pdf.font('Helvetica-Bold').fontSize(26).fillColor(stamp.color)
      .text(stamp.text, MARGIN, MARGIN, { width: contentWidth(pdf), align: 'right', lineBreak: false })
  }
  pdf.fillColor(INK)
  pdf.y = underTitle + 14
}

function drawSeller(pdf: Pdf, seller: Party, top: number, width: number): number {
  pdf.font('Helvetica-Bold').fontSize(13).fillColor(INK).text(seller.name, MARGIN, top, { width })
  pdf.font('Helvetica').fontSize(10)
  if (seller.abn) pdf.text(`ABN ${formatAbn(seller.abn)}`, { width })
  for (const detail of [seller.address, seller.phone, seller.email]) if (detail) pdf.fillColor(MUTED).text(detail, { width })
  pdf.fillColor(INK)
  return pdf.y
}

function drawFacts(pdf: Pdf, doc: InvoiceDocument, top: number, x: number, width: number): number {
  const { invoice } = doc
  const facts: Array<[string, string]> = [
    [invoice.kind === 'credit_note' ? 'Note number' : 'Invoice number', invoice.invoiceNumber],
    ['Issue date', formatInvoiceDate(invoice.issueDate, doc)],
    ['Due date', formatInvoiceDate(invoice.dueDate, doc)],
  ]
  if (invoice.status === 'Void' || invoice.status === 'Paid') facts.push(['Status', invoice.status === 'Void' ? 'VOID' : 'Paid'])
  if (invoice.status !== 'Void') facts.push(['Balance due', formatDollars(invoice.balance)])
  let y = top
  for (const [label, value] of facts) {
    pdf.font('Helvetica').fontSize(10).fillColor(MUTED).text(label, x, y, { width: width / 2, lineBreak: false })
    pdf.font('Helvetica-Bold').fillColor(INK).text(value, x + width / 2, y, { width: width / 2, align: 'right' })
    y = Math.max(y + 15, pdf.y + 2)
  }
  return y
}

function drawBuyer(pdf: Pdf, buyer: Party): void {
  heading(pdf, 'Bill to')
  pdf.moveDown(0.2)
  pdf.font('Helvetica-Bold').fontSize(11).fillColor(INK).text(buyer.name, MARGIN)
  pdf.font('Helvetica').fontSize(10)
  if (buyer.abn) pdf.text(`ABN ${formatAbn(buyer.abn)}`)
  for (const detail of [buyer.address, buyer.email]) if (detail) pdf.fillColor(MUTED).text(detail)
  pdf.fillColor(INK)
}

/** Draws one table row (header or line) at y and returns the y under it; cells wrap within their column. */
function drawRow(pdf: Pdf, cells: string[], y: number, font: string): number {
  pdf.font(font).fontSize(9)
  // A description longer than a whole page would otherwise spill past the footer: cap it.
  const maxCellHeight = contentBottom(pdf) - MARGIN - 40
  const heights = cells.map((text, i) => Math.min(maxCellHeight, pdf.heightOfString(text, { width: COLUMNS[i]!.width - CELL_PADDING * 2 })))
  const rowHeight = Math.max(...heights) + CELL_PADDING * 2
  let x = MARGIN
  cells.forEach((text, i) => {
    const column = COLUMNS[i]!
    pdf.text(text, x + CELL_PADDING, y + CELL_PADDING, { width: column.width - CELL_PADDING * 2, align: column.align, height: maxCellHeight, ellipsis: true })
    x += column.width
  })
  const bottom = y + rowHeight
  pdf.moveTo(MARGIN, bottom).lineTo(MARGIN + contentWidth(pdf), bottom).lineWidth(0.5).strokeColor(RULE).stroke()
  return bottom
}

function rowHeightOf(pdf: Pdf, line: InvoiceLine): number {
  pdf.font('Helvetica').fontSize(9)
  return Math.max(...COLUMNS.map((c) => pdf.heightOfString(c.cell(line), { width: c.width - CELL_PADDING * 2 }))) + CELL_PADDING * 2
}

function drawLineItems(pdf: Pdf, lines: InvoiceLine[]): void {
  const header = COLUMNS.map((c) => c.title)
  let y = drawRow(pdf, header, ensureSpace(pdf, 60), 'Helvetica-Bold')
  for (const line of lines) {
    // A line that does not fit goes to the next page, under a repeated column header.
    if (y + rowHeightOf(pdf, line) > contentBottom(pdf)) {
      pdf.addPage()
      y = drawRow(pdf, header, pdf.y, 'Helvetica-Bold')
    }
    pdf.fillColor(INK)
    y = drawRow(pdf, COLUMNS.map((c) => c.cell(line)), y, 'Helvetica')
  }
  pdf.x = MARGIN
  pdf.y = y + 12
}

function drawTotals(pdf: Pdf, doc: InvoiceDocument): void {
  const { invoice } = doc
  const rows: Array<{ label: string; value: number; strong?: boolean }> = [
    { label: 'Subtotal (ex GST)', value: invoice.subtotal },
    { label: 'GST', value: invoice.gst },
    { label: 'Total (incl. GST)', value: invoice.total, strong: true },
    { label: 'Amount paid', value: invoice.amountPaid },
    { label: 'Balance due', value: invoice.balance, strong: true },
  ]
  const width = 245
  const x = MARGIN + contentWidth(pdf) - width
  let y = ensureSpace(pdf, rows.length * 18 + 30)
  for (const row of rows) {
    pdf.font(row.strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(row.strong ? 11 : 10).fillColor(INK)
    pdf.text(row.label, x, y, { width: 140, lineBreak: false })
    pdf.text(formatDollars(row.value), x + 140, y, { width: width - 140, align: 'right', lineBreak: false })
    y += 18
  }
  pdf.font('Helvetica').fontSize(10).fillColor(MUTED).text(`Total includes GST of ${formatDollars(invoice.gst)}`, x, y + 2, { width, align: 'right' })
  pdf.fillColor(INK)
  pdf.x = MARGIN
  pdf.moveDown(1)
}

function drawVoidNotice(pdf: Pdf, doc: InvoiceDocument): void {
  const { invoice } = doc
  if (invoice.status !== 'Void') return
  const when = invoice.voidedAt ? ` on ${formatInvoiceDate(invoice.voidedAt, doc)}` : ''
  const why = invoice.voidReason ? `: ${invoice.voidReason}` : ''
  ensureSpace(pdf, 30)
  pdf.font('Helvetica-Bold').fontSize(11).fillColor('#b91c1c').text(`VOID. This invoice was cancelled${when}${why}. Nothing is owed on it.`, MARGIN, pdf.y, { width: contentWidth(pdf) })
  pdf.fillColor(INK).moveDown(1)
}

function drawPayment(pdf: Pdf, doc: InvoiceDocument): void {
  const { invoice, cardSurchargePercent } = doc
  // A link to pay is only useful while something is owed on a live invoice.
  const payUrl = invoice.status !== 'Void' && invoice.balance > 0 ? invoice.paymentUrl : null
  if (!payUrl && cardSurchargePercent == null) return
  ensureSpace(pdf, 50)
  heading(pdf, 'Payment', MARGIN)
  pdf.moveDown(0.2)
  pdf.font('Helvetica').fontSize(10).fillColor(INK)
  if (payUrl) {
    pdf.text('Pay online: ', MARGIN, pdf.y, { continued: true })
    pdf.fillColor(LINK).text(payUrl, { link: payUrl, underline: true })
    pdf.fillColor(INK)
  }
  if (cardSurchargePercent != null) pdf.text(`Card payments incur a surcharge of ${percentFormat.format(cardSurchargePercent)}%.`, MARGIN)
  pdf.moveDown(1)
}

function drawNotes(pdf: Pdf, notes: string | null): void {
  if (!notes) return
  ensureSpace(pdf, 40)
  heading(pdf, 'Notes', MARGIN)
  pdf.moveDown(0.2)
  pdf.font('Helvetica').fontSize(10).fillColor(INK).text(notes, MARGIN, pdf.y, { width: contentWidth(pdf) })
}

/** Every page: who and which document, and "Page n of m", so a loose page can be matched up. */
function drawFooters(pdf: Pdf, doc: InvoiceDocument): void {
  const range = pdf.bufferedPageRange()
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i)
    // Writing below the bottom margin would make pdfkit start a new page; lift it while we draw.
    const bottomMargin = pdf.page.margins.bottom
    pdf.page.margins.bottom = 0
    const label = `${doc.seller.name} · ${documentTitle(doc)} ${doc.invoice.invoiceNumber} · Page ${i - range.start + 1} of ${range.count}`
    pdf.font('Helvetica').fontSize(8).fillColor(MUTED).text(label, MARGIN, pdf.page.height - MARGIN + 10, { width: contentWidth(pdf), align: 'center', lineBreak: false })
    pdf.page.margins.bottom = bottomMargin
  }
}

export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const { invoice } = doc
  const { default: PDFDocument } = await loadPdfKit()
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_ROOM },
    bufferPages: true,
    lang: 'en-AU',
    displayTitle: true,
    info: {
      Title: `${documentTitle(doc)} ${invoice.invoiceNumber}`,
      Author: doc.seller.name,
      Subject: `${documentTitle(doc)} ${invoice.invoiceNumber} for ${doc.buyer.name}`,
      // Midday on the issue date in the seller's zone: fixed, so rendering again gives the same file.
      CreationDate: zonedToInstant(`${invoice.issueDate.slice(0, 10)}T12:00`, doc.timeZone),
    },
  })
  const chunks: Buffer[] = []
  const finished = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk))
    pdf.on('end', () => resolve(Buffer.concat(chunks)))
    pdf.on('error', reject)
  })

  drawTitle(pdf, doc)
  const top = pdf.y
  const factsWidth = 215
  const sellerBottom = drawSeller(pdf, doc.seller, top, contentWidth(pdf) - factsWidth - 20)
  const factsBottom = drawFacts(pdf, doc, top, MARGIN + contentWidth(pdf) - factsWidth, factsWidth)
  pdf.x = MARGIN
  pdf.y = Math.max(sellerBottom, factsBottom) + 18
  drawBuyer(pdf, doc.buyer)
  pdf.moveDown(1.2)
  drawVoidNotice(pdf, doc)
  drawLineItems(pdf, invoice.lineItems)
  drawTotals(pdf, doc)
  drawPayment(pdf, doc)
  drawNotes(pdf, invoice.notes)
  drawFooters(pdf, doc)
  pdf.end()
  return finished
}
