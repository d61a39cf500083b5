// The message contract shared by every workflow that sends: what the sendMessage activity takes
// and answers (src/domains/comms/send.ts implements it; comms' activity factory satisfies
// SendMessageActivities). It lives here, beside the workflows, so a workflow never imports a domain.

export interface MessageRequest {
  companyId: string
  channel: 'sms' | 'email'
  /** What the message is; marketing types (spam-act.ts) get the opt-out and are never sent to an address that opted out. */
  messageType: string
  to: string
  subject?: string
  body: string
  /** Plain-text alternative for email (derived from the HTML when absent). */
  text?: string
  /** Email only; defaults to the company's contact email. */
  replyTo?: string
  leadId?: string
  quoteId?: string
  jobId?: string
  invoiceId?: string
  /** Email only: attach this invoice's tax-invoice PDF, rendered when the message is sent (not carried in the workflow input). */
  attachInvoicePdf?: string
  idempotencyKey: string
  /** Already counted against the monthly limit by the action that queued it (quotes.send, jobs.send_eta). */
  quotaReserved?: boolean
}

/** Which channel a step sends by: the automation's setting or the tool's override. */
export type ChannelChoice = 'sms' | 'email' | 'both'

/** A message planned inside a company's run: the company comes from the run. */
export type QueuedMessage = Omit<MessageRequest, 'companyId'>

export interface MessageOutcome {
  communicationId: string
  /** not_sent: refused before the provider (the monthly limit reached, or the recipient opted out of marketing). */
  status: 'recorded' | 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'not_sent'
  provider: string
  alreadySent: boolean
  reason?: string
}

export interface SendMessageActivities {
  /** Idempotent per idempotencyKey; a provider's permanent refusal fails as PermanentDeliveryError (not retried). */
  sendMessage(input: MessageRequest): Promise<MessageOutcome>
}
