// The Xero adapter: xero-node's AccountingApi pointed at XERO_API_BASE_URL (constructed here with
// basePath and accessToken set; XeroClient.initialize() is never called, so no discovery request),
// and the OAuth flow in xero-oauth.ts. Each call reports X-MinLimit-Remaining / X-DayLimit-Remaining;
// a 429 is waited out for its Retry-After (up to maxRetryWaitMs in all), a 5xx or a lost answer is retried
// with the same Idempotency-Key, so Xero returns the first result instead of making a second record.
import type { AccountingApi, Contact } from 'xero-node'
import { centsToDollars } from '../../core/money.js'
import { XERO_CAPABILITIES } from './catalogue.js'
import { XeroOAuth, type XeroOAuthOptions } from './xero-oauth.js'
import { loadOnce } from '../../core/load-once.js'
import {
  ProviderCallError, type AccountingProvider, type ContactFields, type InvoiceFields, type PaymentFields, type ProviderAuth, type ProviderContact,
  type ProviderItem, type ProviderPayment, type ProviderRecordRef, type ProviderResult, type RateLimits, type ChangedPage, type ChangedSince,
} from './provider.js'

export interface XeroOptions extends Omit<XeroOAuthOptions, 'connectionsUrl'> {
  apiBaseUrl: string
  /** The most one call waits out Retry-Afters in total; beyond it the call reports rate limited. */
  maxRetryWaitMs: number
  sleep?: (ms: number) => Promise<void>
}

type Headers = Record<string, unknown>
interface SdkAnswer<T> { response: { status: number; headers: object }; body: T }

const RETRIES_ON_5XX = 2

// The SDK is large: loaded on the first call that needs it (not when this module is imported), then cached.
const loadXero = loadOnce(() => import('xero-node'))

const number = (value: unknown) => (typeof value !== 'string' && typeof value !== 'number' ? null : value === '' || Number.isNaN(Number(value)) ? null : Number(value))
export const limitsFrom = (headers: object): RateLimits | null => {
  const h = headers as Headers
  const limits = { minute_remaining: number(h['x-minlimit-remaining']), day_remaining: number(h['x-daylimit-remaining']) }
  return limits.minute_remaining === null && limits.day_remaining === null ? null : limits
}

/** xero-node rejects with a JSON string of {response: {statusCode, body, headers}} (or an object). */
function failure(error: unknown): { status: number; headers: Headers; body: unknown } {
  let parsed: unknown = error
  if (typeof error === 'string') {
    try { parsed = JSON.parse(error) } catch { return { status: 0, headers: {}, body: error } }
  }
  const response = (parsed as { response?: { statusCode?: number; status?: number; headers?: Headers; body?: unknown; data?: unknown } })?.response
  if (!response) return { status: 0, headers: {}, body: (error as Error)?.message ?? String(error) }
  return { status: response.statusCode ?? response.status ?? 0, headers: response.headers ?? {}, body: response.body ?? response.data }
}

/** Xero's validation messages (Elements[].ValidationErrors[].Message), else its Message/Detail. */
function reason(body: unknown): string {
  const b = body as { Elements?: { ValidationErrors?: { Message?: string }[] }[]; Message?: string; Detail?: string; Title?: string } | string | null
  if (typeof b === 'string') return b.slice(0, 300)
  const messages = (b?.Elements ?? []).flatMap((e) => (e.ValidationErrors ?? []).map((v) => v.Message)).filter(Boolean)
  return messages.length ? messages.join('; ') : (b?.Detail ?? b?.Message ?? b?.Title ?? 'no detail given')
}

const cents = (dollarsValue: number | undefined) => (dollarsValue === undefined ? null : Math.round(dollarsValue * 100))
/** Quotes cannot be escaped inside a Xero where clause; no ABN, email or name we match on needs them. */
const quoted = (value: string) => `"${value.replace(/"/g, '')}"`
/** Xero's payment date: an ISO date, or its /Date(ms+0000)/ form (the SDK may have made either a Date). */
const dayOf = (value: unknown) => {
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  const text = String(value ?? '')
  const ms = /\/Date\((-?\d+)/.exec(text)
  return ms ? new Date(Number(ms[1])).toISOString().slice(0, 10) : text.slice(0, 10)
}
const spacedAbn = (abn: string) => `${abn.slice(0, 2)} ${abn.slice(2, 5)} ${abn.slice(5, 8)} ${abn.slice(8)}`

export class XeroAccounting implements AccountingProvider {
  readonly id = 'xero' as const
  readonly capabilities = XERO_CAPABILITIES
  private readonly oauth: XeroOAuth
  private readonly sleep: (ms: number) => Promise<void>

  constructor(private readonly options: XeroOptions) {
    this.oauth = new XeroOAuth({ ...options, connectionsUrl: new URL(options.apiBaseUrl).origin })
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  }

  authoriseUrl(state: string, redirectUri: string) { return this.oauth.authoriseUrl(state, redirectUri) }
  exchangeCode(code: string, redirectUri: string) { return this.oauth.exchangeCode(code, redirectUri) }
  refresh(refreshToken: string) { return this.oauth.refresh(refreshToken) }
  tenants(accessToken: string) { return this.oauth.tenants(accessToken) }

  async findContact(auth: ProviderAuth, match: ContactFields): Promise<ProviderResult<ProviderContact | null>> {
    const clauses = [
      match.abn && `TaxNumber==${quoted(match.abn)} OR TaxNumber==${quoted(spacedAbn(match.abn))}`,
      match.email && `EmailAddress==${quoted(match.email.toLowerCase())}`,
      `Name==${quoted(match.name)}`,
    ].filter((c): c is string => Boolean(c))
    let limits: RateLimits | null = null
    for (const where of clauses) {
      const found = await this.call((api) => api.getContacts(auth.tenantId, undefined, where), auth)
      limits = found.limits ?? limits
      const contact = found.value.contacts?.find((c) => c.contactStatus?.toString() !== 'ARCHIVED')
      if (contact?.contactID) return { value: this.contactOf(contact), limits }
    }
    return { value: null, limits }
  }

  async createContact(auth: ProviderAuth, contact: ContactFields, idempotencyKey: string): Promise<ProviderResult<ProviderRecordRef>> {
    const { Phone } = await loadXero()
    const body = {
      contacts: [{
        name: contact.name,
        emailAddress: contact.email ?? undefined,
        taxNumber: contact.abn ?? undefined,
        phones: contact.phone ? [{ phoneType: Phone.PhoneTypeEnum.MOBILE, phoneNumber: contact.phone }] : undefined,
      }],
    }
    const made = await this.call((api) => api.createContacts(auth.tenantId, body, true, idempotencyKey), auth)
    return { value: { providerId: this.first(made.value.contacts, 'contact').contactID!, number: null }, limits: made.limits }
  }

  async createInvoice(auth: ProviderAuth, invoice: InvoiceFields, idempotencyKey: string): Promise<ProviderResult<ProviderRecordRef>> {
    const { Invoice, LineAmountTypes } = await loadXero()
    const body = {
      invoices: [{
        type: Invoice.TypeEnum.ACCREC,
        contact: { contactID: invoice.contactProviderId },
        invoiceNumber: invoice.number,
        date: invoice.issueDate,
        dueDate: invoice.dueDate ?? undefined,
        lineAmountTypes: LineAmountTypes.Exclusive,
        status: invoice.authorised ? Invoice.StatusEnum.AUTHORISED : Invoice.StatusEnum.DRAFT,
        lineItems: this.lines(invoice),
      }],
    }
    const made = await this.call((api) => api.createInvoices(auth.tenantId, body, true, 4, idempotencyKey), auth)
    const first = this.first(made.value.invoices, 'invoice')
    return { value: { providerId: first.invoiceID!, number: first.invoiceNumber ?? null }, limits: made.limits }
  }

  async createCreditNote(auth: ProviderAuth, creditNote: InvoiceFields, idempotencyKey: string): Promise<ProviderResult<ProviderRecordRef>> {
    const { CreditNote, LineAmountTypes } = await loadXero()
    const body = {
      creditNotes: [{
        type: CreditNote.TypeEnum.ACCRECCREDIT,
        contact: { contactID: creditNote.contactProviderId },
        creditNoteNumber: creditNote.number,
        date: creditNote.issueDate,
        lineAmountTypes: LineAmountTypes.Exclusive,
        status: creditNote.authorised ? CreditNote.StatusEnum.AUTHORISED : CreditNote.StatusEnum.DRAFT,
        lineItems: this.lines(creditNote),
      }],
    }
    const made = await this.call((api) => api.createCreditNotes(auth.tenantId, body, true, 4, idempotencyKey), auth)
    const first = this.first(made.value.creditNotes, 'credit note')
    return { value: { providerId: first.creditNoteID!, number: first.creditNoteNumber ?? null }, limits: made.limits }
  }

  async createPayment(auth: ProviderAuth, payment: PaymentFields, idempotencyKey: string): Promise<ProviderResult<ProviderRecordRef>> {
    const body = {
      payments: [{
        invoice: { invoiceID: payment.invoiceProviderId },
        account: { code: payment.accountCode },
        amount: centsToDollars(payment.amountCents),
        date: payment.date,
        reference: payment.reference ?? undefined,
      }],
    }
    const made = await this.call((api) => api.createPayments(auth.tenantId, body, true, idempotencyKey), auth)
    return { value: { providerId: this.first(made.value.payments, 'payment').paymentID!, number: null }, limits: made.limits }
  }

  async listItems(auth: ProviderAuth): Promise<ProviderResult<ProviderItem[]>> {
    const got = await this.call((api) => api.getItems(auth.tenantId), auth)
    const items = (got.value.items ?? []).map((i) => ({ providerId: i.itemID!, code: i.code, name: i.name ?? i.code, unitPriceCents: cents(i.salesDetails?.unitPrice) }))
    return { value: items, limits: got.limits }
  }

  async listContacts(auth: ProviderAuth, query: ChangedSince): Promise<ProviderResult<ChangedPage<ProviderContact>>> {
    const since = query.since ? new Date(query.since) : undefined
    const got = await this.call((api) => api.getContacts(auth.tenantId, since, undefined, 'UpdatedDateUTC ASC', undefined, query.page, false, undefined, undefined, query.pageSize), auth)
    const page = got.value.contacts ?? []
    const records = page.filter((c) => c.contactID && c.contactStatus?.toString() !== 'ARCHIVED').map((c) => this.contactOf(c))
    return { value: { records, more: page.length >= query.pageSize }, limits: got.limits }
  }

  async listPayments(auth: ProviderAuth, query: ChangedSince): Promise<ProviderResult<ChangedPage<ProviderPayment>>> {
    const since = query.since ? new Date(query.since) : undefined
    const got = await this.call((api) => api.getPayments(auth.tenantId, since, undefined, 'UpdatedDateUTC ASC', query.page, query.pageSize), auth)
    const page = got.value.payments ?? []
    const records = page.filter((p) => p.paymentID && p.status?.toString() !== 'DELETED').map((p) => ({
      providerId: p.paymentID!,
      invoiceProviderId: p.invoice?.invoiceID ?? null,
      amountCents: cents(p.amount) ?? 0,
      date: dayOf(p.date),
      reference: p.reference ?? null,
    }))
    return { value: { records, more: page.length >= query.pageSize }, limits: got.limits }
  }

  private lines(invoice: InvoiceFields) {
    return invoice.lines.map((l) => ({
      description: l.description, quantity: l.quantity, unitAmount: centsToDollars(l.unitAmountCents), taxType: l.gstFree ? 'EXEMPTOUTPUT' : 'OUTPUT',
    }))
  }

  private contactOf(c: Contact): ProviderContact {
    return { providerId: c.contactID!, name: c.name ?? '', email: c.emailAddress ?? null, phone: c.phones?.find((p) => p.phoneNumber)?.phoneNumber ?? null, abn: c.taxNumber?.replace(/\s/g, '') ?? null }
  }

  private first<T>(records: T[] | undefined, what: string): T {
    const record = records?.[0]
    if (!record) throw new ProviderCallError(`Xero answered the ${what} write without the ${what}.`, 502, true)
    return record
  }

  /**
   * One SDK call with Xero's limits respected: a 429 waits its Retry-After (a wait, not a failure)
   * while the waits stay within maxRetryWaitMs in total; a 5xx or no answer is tried again
   * RETRIES_ON_5XX times. The closure
   * repeats the same request, Idempotency-Key included.
   */
  private async call<T>(send: (api: AccountingApi) => Promise<SdkAnswer<T>>, auth: ProviderAuth): Promise<ProviderResult<T>> {
    const { AccountingApi } = await loadXero()
    let waitedMs = 0
    let retries = 0
    for (;;) {
      const api = new AccountingApi(this.options.apiBaseUrl) // one per call: the token belongs to this connection
      api.accessToken = auth.accessToken
      try {
        const answer = await send(api)
        return { value: answer.body, limits: limitsFrom(answer.response.headers) }
      } catch (error) {
        const failed = failure(error)
        const limits = limitsFrom(failed.headers)
        if (failed.status === 429) {
          const retryAfter = number(failed.headers['retry-after']) ?? 1
          if (waitedMs + retryAfter * 1000 <= this.options.maxRetryWaitMs) {
            waitedMs += retryAfter * 1000
            await this.sleep(retryAfter * 1000)
            continue
          }
          throw new ProviderCallError(`Xero's rate limit is reached (${String(failed.headers['x-rate-limit-problem'] ?? 'limit')}); it asks to wait ${retryAfter} s.`, 429, true, limits, retryAfter)
        }
        if ((failed.status === 0 || failed.status >= 500) && retries < RETRIES_ON_5XX) {
          retries++
          await this.sleep(200 * 2 ** retries)
          continue
        }
        const retryable = failed.status === 0 || failed.status >= 500
        const what = failed.status === 0 ? 'did not answer' : `answered ${failed.status}`
        throw new ProviderCallError(`Xero ${what}: ${reason(failed.body)}`, failed.status || 502, retryable, limits)
      }
    }
  }
}
