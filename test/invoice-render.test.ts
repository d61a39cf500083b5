// The two invoice renderers, from a hand-built InvoiceDocument: the PDF read back with poppler
// (pdftotext, pdfinfo, pdftoppm) and the phone page checked as a string and in Debian's chromium
// at 390 px. Renders go to a temp dir; set KEEP_INVOICE_RENDERS=1 to keep them for a look.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchChromium, phoneContext } from './helpers/browser.js'
import type { Invoice, InvoiceDocument, InvoiceLine } from '../src/domains/invoicing/document.js'
import { renderInvoicePdf } from '../src/domains/invoicing/pdf.js'
import { renderInvoicePage } from '../src/transports/pages/invoice-html.js'

const outDir = mkdtempSync(join(tmpdir(), 'invoice-render-'))
afterAll(() => {
  if (!process.env.KEEP_INVOICE_RENDERS) rmSync(outDir, { recursive: true, force: true })
})

const cents = (dollars: number) => Math.round(dollars * 100)
const dollars = (c: number) => c / 100

function line(description: string, quantity: number, unitPrice: number): InvoiceLine {
  const total = cents(quantity * unitPrice)
  return { description, quantity, unitPrice, total: dollars(total), gst: dollars(Math.round(total / 10)) }
}

/** An InvoiceDocument whose totals add up from its lines, as the domain would build it. */
function invoiceDocument(lines: InvoiceLine[], overrides: Partial<Invoice> = {}, cardSurchargePercent: number | null = 1.5): InvoiceDocument {
  const subtotal = lines.reduce((sum, l) => sum + cents(l.total), 0)
  const gst = lines.reduce((sum, l) => sum + cents(l.gst), 0)
  const amountPaid = cents(overrides.amountPaid ?? 200)
  const invoice: Invoice = {
    id: 'inv_01', invoiceNumber: 'INV-00042', kind: 'final', status: 'Partially Paid', jobId: 'job_01', quoteId: 'quo_01', leadId: 'lead_01',
    clientName: 'Morgan Blake Pty Ltd', lineItems: lines,
    subtotal: dollars(subtotal), gst: dollars(gst), total: dollars(subtotal + gst), amountPaid: dollars(amountPaid), balance: dollars(subtotal + gst - amountPaid),
    issueDate: '2026-11-21', dueDate: '2026-12-05', notes: 'Thanks for your business.\nWarranty: 12 months on labour.',
    publicUrl: 'https://app.example.com.au/i/tok123', pdfUrl: 'https://app.example.com.au/i/tok123/pdf', paymentUrl: 'https://pay.example.com.au/c/pay_123',
    creditsInvoiceId: null, replacesInvoiceId: null, voidedAt: null, voidReason: null, sentAt: '2026-11-21T01:00:00Z', paidAt: null,
    createdAt: '2026-11-21T00:30:00Z', updatedAt: '2026-11-21T01:00:00Z',
    ...overrides,
  }
  return {
    invoice,
    seller: { name: 'Harbour City Plumbing', abn: '51824753556', address: '12 Wharf Road, Balmain NSW 2041', phone: '02 9000 1234', email: 'accounts@harbourcity.example' },
    buyer: { name: 'Morgan Blake Pty Ltd', abn: '33 102 417 032', address: '4 Illawarra Road, Marrickville NSW 2204', phone: '0412 987 654', email: 'morgan@example.com' },
    cardSurchargePercent,
    timeZone: 'Australia/Sydney',
  }
}

const finalLines = [
  line('Supply & install 250L electric hot water system, including removal and disposal of the old unit and a new tempering valve', 1, 1650),
  line('Labour (hours)', 2.5, 95.5),
  line('Less deposit INV-00001', 1, -500),
]
const finalInvoice = invoiceDocument(finalLines)
// 1650 + 238.75 - 500 = 1388.75 ex GST; GST 165 + 23.88 - 50 = 138.88; total 1527.63; 200 paid.
const expectedTotal = '$1,527.63'

interface ReadBack { text: string; info: string; pages: number; pngs: string[]; bytes: Buffer }
async function renderAndRead(name: string, doc: InvoiceDocument): Promise<ReadBack> {
  const bytes = await renderInvoicePdf(doc)
  const file = join(outDir, `${name}.pdf`)
  writeFileSync(file, bytes)
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' })
  execFileSync('pdftoppm', ['-png', '-r', '50', file, join(outDir, name)])
  const pngs = readdirSync(outDir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))
  return { text, info, pages: Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]), pngs, bytes }
}

describe('renderInvoicePdf', () => {
  it('prints a tax invoice: title, seller and ABN, buyer and ABN, lines with GST, a negative deposit line, totals and payment', async () => {
    const { text, info, pages, pngs, bytes } = await renderAndRead('final', finalInvoice)
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect(pages).toBe(1)
    expect(pngs).toHaveLength(1)
    expect(text).toContain('Tax invoice')
    expect(text).toContain('Harbour City Plumbing')
    expect(text).toContain('ABN 51 824 753 556')
    expect(text).toContain('INV-00042')
    expect(text).toContain('21 November 2026')
    expect(text).toContain('5 December 2026')
    expect(text).toContain('Bill to'.toUpperCase())
    expect(text).toContain('Morgan Blake Pty Ltd')
    expect(text).toContain('ABN 33 102 417 032')
    expect(text).toMatch(/Labour \(hours\)\s+2\.5\s+\$95\.50\s+\$23\.88\s+\$238\.75/)
    // The netted-off deposit keeps its minus sign in every money column.
    expect(text).toMatch(/Less deposit INV-00001\s+1\s+-\$500\.00\s+-\$50\.00\s+-\$500\.00/)
    // The long description wraps inside its column rather than being cut off.
    expect(text).toContain('tempering valve')
    expect(text).toMatch(/Subtotal \(ex GST\)\s+\$1,388\.75/)
    expect(text).toMatch(/GST\s+\$138\.88/)
    expect(text).toMatch(new RegExp(`Total \\(incl\\. GST\\)\\s+\\${expectedTotal}`))
    expect(text).toMatch(/Amount paid\s+\$200\.00/)
    expect(text).toMatch(/Balance due\s+\$1,327\.63/)
    expect(text).toContain('Total includes GST of $138.88')
    expect(text).toContain('Pay online: https://pay.example.com.au/c/pay_123')
    expect(text).toContain('Card payments incur a surcharge of 1.5%')
    expect(text).toContain('Warranty: 12 months on labour.')
    expect(text).toContain('Page 1 of 1')
    expect(text).not.toContain('VOID')
    // The pay address is a real link annotation, not just text.
    expect(bytes.toString('latin1')).toMatch(/\/URI \(https:\/\/pay\.example\.com\.au\/c\/pay_123\)/)
    expect(info).toMatch(/^Title:\s+Tax invoice INV-00042$/m)
    expect(info).toMatch(/^Author:\s+Harbour City Plumbing$/m)
    expect(info).toMatch(/^Page size:\s+595\.28 x 841\.89 pts \(A4\)$/m)
  })

  it('renders the same bytes for the same document', async () => {
    const first = await renderInvoicePdf(finalInvoice)
    const second = await renderInvoicePdf(structuredClone(finalInvoice))
    expect(first.equals(second)).toBe(true)
    const changed = await renderInvoicePdf(invoiceDocument(finalLines, { issueDate: '2026-11-22' }))
    expect(changed.equals(first)).toBe(false)
  })

  it('flows 60 lines onto further pages, repeating the column header, with every line present', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => line(
      i % 7 === 0 ? `Item ${i + 1}: copper pipe and fittings for the ensuite, laundry and kitchen rough-in, per the plans dated 3 November` : `Item ${i + 1}: fittings`,
      (i % 4) + 1, 12.5 + i,
    ))
    const { text, pages, pngs } = await renderAndRead('sixty', invoiceDocument(lines))
    expect(pages).toBeGreaterThan(1)
    expect(pngs).toHaveLength(pages)
    for (let i = 1; i <= 60; i++) expect(text).toMatch(new RegExp(`Item ${i}:`))
    expect(text.match(/Description\s+Qty/g)?.length).toBe(pages)
    expect(text).toContain(`Page ${pages} of ${pages}`)
    // The totals come after the last line, not on the first page.
    const lastPage = text.split('\f').filter((p) => p.trim()).at(-1)!
    expect(lastPage).toContain('Balance due')
  })

  it('marks a void invoice VOID and offers no way to pay it', async () => {
    const { text } = await renderAndRead('void', invoiceDocument(finalLines, { status: 'Void', voidedAt: '2026-11-25T03:00:00Z', voidReason: 'Raised against the wrong job' }))
    expect(text).toContain('VOID')
    expect(text).toContain('Raised against the wrong job')
    expect(text).not.toContain('Pay online')
  })

  it('marks a paid invoice PAID with nothing left to pay online', async () => {
    const { text } = await renderAndRead('paid', invoiceDocument(finalLines, { status: 'Paid', amountPaid: 1527.63, paidAt: '2026-11-30T00:00:00Z' }))
    expect(text).toContain('PAID')
    expect(text).toMatch(/Balance due\s+\$0\.00/)
    expect(text).not.toContain('Pay online')
  })

  it('titles a credit note "Adjustment note" with its number', async () => {
    const credit = invoiceDocument([line('Credit: hot water system returned', 1, -1650)], { kind: 'credit_note', invoiceNumber: 'CN-00003', status: 'Sent', amountPaid: 0, paymentUrl: null, creditsInvoiceId: 'inv_01' }, null)
    const { text } = await renderAndRead('credit', credit)
    expect(text).toContain('Adjustment note')
    expect(text).toContain('(credit note)')
    expect(text).toContain('CN-00003')
    expect(text).not.toContain('Tax invoice')
    expect(text).toMatch(/Total \(incl\. GST\)\s+-\$1,815\.00/)
  })
})

const options = { payUrl: 'https://pay.example.com.au/c/pay_123', pdfUrl: '/i/tok123/pdf' }

describe('renderInvoicePage', () => {
  it('shows the invoice with its totals under stable ids and a pay button for the balance', () => {
    const html = renderInvoicePage(finalInvoice, options)
    expect(html).toContain('<html lang="en-AU">')
    expect(html).toContain('<meta name="robots" content="noindex">')
    expect(html).not.toMatch(/<script/i)
    expect(html).toContain('Tax invoice INV-00042')
    expect(html).toContain('Harbour City Plumbing · ABN 51 824 753 556')
    expect(html).toContain('ABN 33 102 417 032')
    expect(html).toContain('id="invoice-status" data-status="Partially Paid"')
    expect(html).toContain('<td class="num" id="subtotal">$1,388.75</td>')
    expect(html).toContain('<td class="num" id="gst">$138.88</td>')
    expect(html).toContain(`<td class="num" id="total">${expectedTotal}</td>`)
    expect(html).toContain('<td class="num" id="amount-paid">$200.00</td>')
    expect(html).toContain('<td class="num" id="balance">$1,327.63</td>')
    expect(html).toContain('Less deposit INV-00001<span class="detail">1 × -$500.00 ex GST · GST -$50.00</span></td>')
    expect(html).toContain('<td class="num">-$500.00</td>')
    expect(html).toContain('<a class="button pay" id="pay" href="https://pay.example.com.au/c/pay_123">Pay $1,327.63 now</a>')
    expect(html).toContain('href="/i/tok123/pdf">Download PDF</a>')
    expect(html).toContain('Card payments incur a surcharge of 1.5%')
  })

  it('has no pay button without a pay URL, with nothing owed, when void, or for a non-web URL', () => {
    expect(renderInvoicePage(finalInvoice, { ...options, payUrl: null })).not.toContain('id="pay"')
    const paid = invoiceDocument(finalLines, { status: 'Paid', amountPaid: 1527.63 })
    expect(renderInvoicePage(paid, options)).not.toContain('id="pay"')
    const voided = invoiceDocument(finalLines, { status: 'Void' })
    const voidPage = renderInvoicePage(voided, options)
    expect(voidPage).not.toContain('id="pay"')
    expect(voidPage).toContain('data-status="Void">VOID')
    expect(renderInvoicePage(finalInvoice, { ...options, payUrl: 'javascript:alert(1)' })).not.toContain('id="pay"')
  })

  it('escapes every value from the document and the options', () => {
    const hostile = invoiceDocument([line('<script>alert("x")</script>', 1, 10)], { invoiceNumber: 'INV-"><img src=x>' })
    hostile.buyer.name = '<b onmouseover=alert(1)>Evil</b>'
    const html = renderInvoicePage(hostile, { ...options, notice: '<i>paid</i>', error: '<svg onload=alert(1)>' })
    expect(html).not.toMatch(/<script|<img|<b |<svg|<i>/i)
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(html).toContain('INV-&quot;&gt;&lt;img src=x&gt;')
    expect(html).toContain('<p class="notice" role="status">&lt;i&gt;paid&lt;/i&gt;</p>')
    expect(html).toContain('<p class="error" role="alert">&lt;svg onload=alert(1)&gt;</p>')
  })

  it('shows notice and error boxes only when given', () => {
    const html = renderInvoicePage(finalInvoice, options)
    expect(html).not.toContain('role="status"')
    expect(html).not.toContain('role="alert"')
  })
})

describe('invoice page in chromium at phone width', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(() => browser?.close())

  it('fits 390 px without sideways scrolling and shows the pay button', async () => {
    // An unbroken part number is the usual way a table pushes a phone page sideways.
    const doc = invoiceDocument([...finalLines, line('Rheem part RHM-491-0000000000000000000000000000000000000000-B', 2, 1234.56)])
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.setContent(renderInvoicePage(doc, { ...options, notice: 'Payment received, thank you' }))
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390)
    const pay = page.locator('#pay')
    expect(await pay.isVisible()).toBe(true)
    const box = (await pay.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(390)
    expect(box.height).toBeGreaterThanOrEqual(44) // a comfortable thumb target
    expect(await page.getByRole('link', { name: 'Download PDF' }).isVisible()).toBe(true)
    expect(await page.locator('#balance').textContent()).toBe('$4,043.66')
    await page.screenshot({ path: join(outDir, 'invoice-page-phone.png'), fullPage: true })
    await context.close()
  })
})
