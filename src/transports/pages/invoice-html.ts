// The client-facing invoice page: server-rendered, phone-first HTML with no script, in the same
// style family as the quote page. Pure: the route decides the pay and PDF links and any notice, and
// sends it with setPageHeaders (noindex, no-store, a CSP that allows inline style only).
import type { InvoiceDocument, InvoiceStatus } from '../../domains/invoicing/document.js'
import { CLIENT_PAGE_STYLE, clientPageStart, escapeHtml as e } from './html.js'
import { formatAbn } from '../../domains/onboarding/abn.js'
import { formatDollars } from '../../core/money.js'
import { longLocalDate } from '../../core/zoned-time.js'

export interface InvoicePageOptions {
  /** Where the client pays online; null hides the pay button. */
  payUrl: string | null
  pdfUrl: string
  /** A good outcome to announce, e.g. "Payment received, thank you". */
  notice?: string
  /** A problem to announce, e.g. a payment that did not go through. */
  error?: string
}

const quantityFormat = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 3 })
const percentFormat = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 2 })

/** Only web links and paths on this site become hrefs: escaping alone would let `javascript:` through. */
function safeHref(url: string | null): string | null {
  return url && /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : null
}

const STYLE = `${CLIENT_PAGE_STYLE}
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 0; }
  dt { color: #555; } dd { margin: 0; font-weight: 600; text-align: right; }
  table { width: 100%; border-collapse: collapse; font-size: .95rem; }
  th, td { text-align: left; padding: .5rem .25rem; border-bottom: 1px solid #e6e8eb; vertical-align: top; overflow-wrap: anywhere; }
  th.num, td.num { text-align: right; white-space: nowrap; overflow-wrap: normal; }
  .detail { display: block; color: #555; font-size: .85rem; font-weight: 400; }
  .party p { margin: 0; }
  tfoot th, tfoot td { border-bottom: 0; } tfoot tr.total th, tfoot tr.total td { font-size: 1.15rem; font-weight: 700; }
  .status { padding: .75rem 1rem; border-radius: .5rem; font-weight: 600; background: #e8f0fe; color: #1e3a8a; }
  .status[data-status="Paid"] { background: #e3f4e8; color: #14532d; }
  .status[data-status="Overdue"], .status[data-status="Void"] { background: #fdecec; color: #7f1d1d; }
  .status[data-status="Draft"] { background: #eeeeee; color: #333; }
  .notice { background: #e3f4e8; color: #14532d; border-radius: .5rem; padding: .75rem; }
  .error { background: #fdecec; color: #7f1d1d; border-radius: .5rem; padding: .75rem; }
  a.button { display: block; box-sizing: border-box; width: 100%; text-align: center; font-size: 1.1rem; font-weight: 600; padding: .9rem; margin-top: .75rem; border-radius: .5rem; text-decoration: none; }
  a.pay { background: #15803d; color: #fff; font-size: 1.25rem; }
  a.pdf { background: #fff; color: #0b5cad; border: 2px solid #0b5cad; }
  .muted { color: #555; font-size: .9rem; }
  .notes { white-space: pre-line; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
`

function statusText(doc: InvoiceDocument): string {
  const { invoice } = doc
  const longDate = (iso: string) => longLocalDate(iso, doc.timeZone) // an instant (paid, voided) as the seller's date
  const due = longDate(invoice.dueDate)
  const byStatus: Record<InvoiceStatus, string> = {
    Draft: 'Draft: not yet sent.',
    Sent: `${formatDollars(invoice.balance)} due by ${due}.`,
    'Partially Paid': `Part paid: ${formatDollars(invoice.balance)} still owing, due by ${due}.`,
    Overdue: `Overdue: ${formatDollars(invoice.balance)} was due by ${due}.`,
    Paid: `Paid in full${invoice.paidAt ? ` on ${longDate(invoice.paidAt)}` : ''}. Thank you!`,
    Void: `VOID: this ${invoice.kind === 'credit_note' ? 'note' : 'invoice'} was cancelled${invoice.voidedAt ? ` on ${longDate(invoice.voidedAt)}` : ''}${invoice.voidReason ? ` (${invoice.voidReason})` : ''}. Nothing is owed on it.`,
  }
  return byStatus[invoice.status] ?? invoice.status
}

function partyLines(abn: string | null, ...details: Array<string | null>): string {
  return [abn ? `ABN ${formatAbn(abn)}` : null, ...details].filter(Boolean).map((line) => `<p>${e(line)}</p>`).join('')
}

export function renderInvoicePage(doc: InvoiceDocument, options: InvoicePageOptions): string {
  const { invoice, seller, buyer } = doc
  const longDate = (iso: string) => longLocalDate(iso, doc.timeZone)
  const title = invoice.kind === 'credit_note' ? 'Adjustment note' : 'Tax invoice'
  const payHref = invoice.status !== 'Void' && invoice.balance > 0 ? safeHref(options.payUrl) : null
  const pdfHref = safeHref(options.pdfUrl)
  // Two columns so a description keeps most of a phone's width; quantity, unit price and the line's
  // GST go on a second line under it.
  const rows = invoice.lineItems.map((line) => `<tr>
      <td>${e(line.description)}<span class="detail">${e(quantityFormat.format(line.quantity))} × ${e(formatDollars(line.unitPrice))} ex GST · GST ${e(formatDollars(line.gst))}</span></td>
      <td class="num">${e(formatDollars(line.total))}</td>
    </tr>`).join('')
  const contact = [seller.phone, seller.email].filter(Boolean).map(e).join(' · ')
  return `${clientPageStart(`${title} ${invoice.invoiceNumber} from ${seller.name}`, STYLE)}
<header>
  <p>${e(seller.name)}${seller.abn ? ` · ABN ${e(formatAbn(seller.abn))}` : ''}</p>
  ${contact ? `<p>${contact}</p>` : ''}
  ${seller.address ? `<p>${e(seller.address)}</p>` : ''}
  <h1>${e(title)} ${e(invoice.invoiceNumber)}</h1>
  ${invoice.kind === 'credit_note' ? '<p>(credit note)</p>' : ''}
</header>
${options.notice ? `<p class="notice" role="status">${e(options.notice)}</p>` : ''}
${options.error ? `<p class="error" role="alert">${e(options.error)}</p>` : ''}
<p class="status" id="invoice-status" data-status="${e(invoice.status)}">${e(statusText(doc))}</p>
${payHref ? `<a class="button pay" id="pay" href="${e(payHref)}">Pay ${e(formatDollars(invoice.balance))} now</a>` : ''}
${doc.cardSurchargePercent != null ? `<p class="muted" id="surcharge">Card payments incur a surcharge of ${e(percentFormat.format(doc.cardSurchargePercent))}%.</p>` : ''}
<section class="card" aria-labelledby="details-heading">
  <h2 id="details-heading">Details</h2>
  <dl>
    <dt>${invoice.kind === 'credit_note' ? 'Note number' : 'Invoice number'}</dt><dd>${e(invoice.invoiceNumber)}</dd>
    <dt>Issue date</dt><dd>${e(longDate(invoice.issueDate))}</dd>
    <dt>Due date</dt><dd>${e(longDate(invoice.dueDate))}</dd>
  </dl>
</section>
<section class="card party" aria-labelledby="bill-to-heading">
  <h2 id="bill-to-heading">Bill to</h2>
  <p><strong>${e(buyer.name)}</strong></p>
  ${partyLines(buyer.abn, buyer.address, buyer.email)}
</section>
<section class="card" aria-labelledby="items-heading">
  <h2 id="items-heading">Items</h2>
  <table>
    <thead><tr><th scope="col">Item</th><th scope="col" class="num">Amount <span class="detail">(ex GST)</span></th></tr></thead>
    <tbody>${rows}</tbody>
    <tfoot>
      <tr><th scope="row">Subtotal (ex GST)</th><td class="num" id="subtotal">${e(formatDollars(invoice.subtotal))}</td></tr>
      <tr><th scope="row">GST</th><td class="num" id="gst">${e(formatDollars(invoice.gst))}</td></tr>
      <tr class="total"><th scope="row">Total (incl. GST)</th><td class="num" id="total">${e(formatDollars(invoice.total))}</td></tr>
      <tr><th scope="row">Amount paid</th><td class="num" id="amount-paid">${e(formatDollars(invoice.amountPaid))}</td></tr>
      <tr class="total"><th scope="row">Balance due</th><td class="num" id="balance">${e(formatDollars(invoice.balance))}</td></tr>
    </tfoot>
  </table>
  <p class="muted">Total includes GST of ${e(formatDollars(invoice.gst))}. Prices in Australian dollars.</p>
  ${invoice.notes ? `<p class="notes">${e(invoice.notes)}</p>` : ''}
</section>
${pdfHref ? `<a class="button pdf" id="pdf" href="${e(pdfHref)}">Download PDF</a>` : ''}
</main>
</body>
</html>`
}
