// Accounting packages (issue 24): one interface for Xero, MYOB and QuickBooks Online, so the
// integrations domain and the sync workflow never name a provider's API. An adapter speaks OAuth 2
// (authorise URL, code exchange, refresh with rotation, the organisations a grant reaches) and the
// records we exchange. Every call reports the rate limits the provider said are left, and every
// write takes an idempotency key so a retried call never makes a second record.

export const ACCOUNTING_PROVIDERS = ['xero', 'myob', 'quickbooks_online'] as const
export type AccountingProviderId = (typeof ACCOUNTING_PROVIDERS)[number]

export const ACCOUNTING_ENTITIES = ['contact', 'invoice', 'credit_note', 'payment', 'item'] as const
export type AccountingEntity = (typeof ACCOUNTING_ENTITIES)[number]

export interface AccountingCapabilities {
  /** Records we can read from the provider. */
  pull: AccountingEntity[]
  /** Records we can create or update there. */
  push: AccountingEntity[]
  /** The provider tells us of changes (signed webhooks) rather than only being polled. */
  webhooks: boolean
  /** Writes carry an idempotency key the provider honours (Xero Idempotency-Key, QBO requestid). */
  idempotent_writes: boolean
}

/** What the provider said is left of its limits on the last call (null: it did not say). */
export interface RateLimits {
  minute_remaining: number | null
  day_remaining: number | null
}

export interface TokenSet {
  accessToken: string
  /** Xero rotates it on every refresh: the one returned replaces the one used. */
  refreshToken: string
  expiresAt: Date
  scopes: string[]
}

/** An organisation (Xero tenant, MYOB company file, QBO realm) the grant reaches. */
export interface ProviderTenant { tenantId: string; tenantName: string | null }

/** What every data call needs: whose books, with which token. */
export interface ProviderAuth { tenantId: string; accessToken: string }

export interface ProviderResult<T> { value: T; limits: RateLimits | null }

export interface ContactFields {
  name: string
  email: string | null
  phone: string | null
  /** 11 digits, no spaces. */
  abn: string | null
}

export interface ProviderContact extends ContactFields { providerId: string }

export interface InvoiceLine { description: string; quantity: number; unitAmountCents: number; gstFree: boolean }

export interface InvoiceFields {
  /** Our invoice number, kept as the provider's number. */
  number: string
  contactProviderId: string
  issueDate: string
  dueDate: string | null
  lines: InvoiceLine[]
  /** Our own status mapped to the provider's draft/authorised. */
  authorised: boolean
}

export interface ProviderRecordRef { providerId: string; number: string | null }

export interface PaymentFields { invoiceProviderId: string; amountCents: number; date: string; accountCode: string; reference: string | null }

export interface ProviderItem { providerId: string; code: string; name: string; unitPriceCents: number | null }

/** A payment at the provider, on one of its invoices. */
export interface ProviderPayment { providerId: string; invoiceProviderId: string | null; amountCents: number; date: string; reference: string | null }

/**
 * One page of records changed since a time, oldest change first (so a sync that stops part way
 * resumes at the same page). `more`: a next page may hold more.
 */
export interface ChangedPage<T> { records: T[]; more: boolean }

/** Which page of the records changed since `since` (null: all of them); pages count from 1. */
export interface ChangedSince { since: string | null; page: number; pageSize: number }

export interface AccountingProvider {
  readonly id: AccountingProviderId
  readonly capabilities: AccountingCapabilities
  /** Where the owner is sent to grant access; state comes back unchanged to the callback. */
  authoriseUrl(state: string, redirectUri: string): string
  exchangeCode(code: string, redirectUri: string): Promise<TokenSet>
  refresh(refreshToken: string): Promise<TokenSet>
  tenants(accessToken: string): Promise<ProviderTenant[]>
  /** Matched by ABN, then email, then name; null when none matches. */
  findContact(auth: ProviderAuth, match: ContactFields): Promise<ProviderResult<ProviderContact | null>>
  createContact(auth: ProviderAuth, contact: ContactFields, idempotencyKey: string): Promise<ProviderResult<ProviderRecordRef>>
  createInvoice(auth: ProviderAuth, invoice: InvoiceFields, idempotencyKey: string): Promise<ProviderResult<ProviderRecordRef>>
  createCreditNote(auth: ProviderAuth, creditNote: InvoiceFields, idempotencyKey: string): Promise<ProviderResult<ProviderRecordRef>>
  createPayment(auth: ProviderAuth, payment: PaymentFields, idempotencyKey: string): Promise<ProviderResult<ProviderRecordRef>>
  listItems(auth: ProviderAuth): Promise<ProviderResult<ProviderItem[]>>
  /** Contacts created or changed since a time, a page at a time (archived ones left out). */
  listContacts(auth: ProviderAuth, query: ChangedSince): Promise<ProviderResult<ChangedPage<ProviderContact>>>
  /** Payments (on sales invoices) created or changed since a time, a page at a time. */
  listPayments(auth: ProviderAuth, query: ChangedSince): Promise<ProviderResult<ChangedPage<ProviderPayment>>>
}

/**
 * A provider call that failed for a reason the caller can act on. `retryable` says whether the
 * same call (with the same idempotency key) may succeed later; `status` is the provider's HTTP status.
 */
export class ProviderCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryable: boolean,
    readonly limits: RateLimits | null = null,
    /** Seconds the provider asked us to wait (429), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message)
  }
}

/** How each provider is listed by integrations.available_providers. */
export interface ProviderListing {
  provider: AccountingProviderId
  name: string
  category: 'accounting'
  available: boolean
  /** Why it cannot be connected here (null when it can). */
  unavailable_reason: string | null
  capabilities: AccountingCapabilities
  /** The provider's own limits, as its documentation states them. */
  limits: string
}

/** The providers this deployment can connect (deps.accounting), chosen from configuration. */
export interface AccountingProviders {
  listings(): ProviderListing[]
  /** null when the provider cannot be connected here (its listing says why). */
  get(id: AccountingProviderId): AccountingProvider | null
}
