// Sample documents made by the tests themselves: PDFs with pdfkit (as the invoices are rendered) and a
// photo of a printed receipt as a PNG screenshot of it in chromium, so every value the tests check
// for was put there by the test.
import PDFDocument from 'pdfkit'
import { isValidAbn } from '../../src/domains/onboarding/abn.js'
import { launchChromium } from './browser.js'

export function pdfOf(lines: string[]): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'A4', info: { CreationDate: new Date('2026-01-01T00:00:00Z') } })
    const chunks: Buffer[] = []
    doc.on('data', (c: Buffer) => chunks.push(c))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.fontSize(12)
    for (const line of lines) doc.text(line)
    doc.end()
  })
}

/** A printed receipt photographed: monospace black on white, as a till prints it. */
export async function receiptPhoto(lines: string[]): Promise<Buffer> {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 520, height: 40 + lines.length * 34 } })
    const escaped = lines.map((l) => l.replace(/&/g, '&amp;').replace(/</g, '&lt;')).join('\n')
    await page.setContent(`<body style="margin:16px;background:#fff;color:#000"><pre style="font:24px 'DejaVu Sans Mono',monospace;margin:0">${escaped}</pre></body>`)
    return await page.screenshot({ type: 'png' })
  } finally {
    await browser.close()
  }
}

/** A valid ABN starting with the given 9 digits (the last two chosen to pass the ABR checksum), spaced as printed. */
export function validAbn(first9: string): string {
  for (let i = 0; i < 100; i++) {
    const abn = `${first9}${String(i).padStart(2, '0')}`
    if (isValidAbn(abn)) return abn.replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4')
  }
  throw new Error(`no valid ABN starts with ${first9}`)
}
