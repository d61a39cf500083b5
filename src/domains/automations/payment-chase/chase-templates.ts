// The payment chase's wording, one template per tone and channel. A company's own wording, when it
// has one in message_templates under the same key (invoice_chase.firm.sms, ...), wins. Placeholders:
// {first_name}, {business_name}, {invoice_number}, {amount}, {due_date}, {due_phrase} ("is due on
// 3 March", "is due today" or "was due on 3 March"), {days_overdue}, {link}.
import type postgres from 'postgres'
import { htmlToText, render, type Template } from '../engine/templates.js'
import type { ChaseTone } from './workflows/invoice-chase.js'
import { findMessageTemplate } from './queries.js'

export type { ChaseTone }

export const CHASE_TEMPLATES: Record<string, Template> = {
  'invoice_chase.friendly.sms': {
    subject: null,
    body: 'Hi {first_name}, a friendly reminder that invoice {invoice_number} from {business_name} for {amount} {due_phrase}. You can view and pay it here: {link}. Thanks!',
  },
  'invoice_chase.friendly.email': {
    subject: 'Reminder: invoice {invoice_number} from {business_name}',
    body: '<p>Hi {first_name},</p><p>A friendly reminder that invoice {invoice_number} for {amount} {due_phrase}.</p><p><a href="{link}">View and pay it online</a>.</p><p>Thanks,<br>{business_name}</p>',
  },
  'invoice_chase.firm.sms': {
    subject: null,
    body: 'Hi {first_name}, invoice {invoice_number} for {amount} is now {days_overdue} days overdue. Please pay it today: {link}, or contact us to arrange payment. {business_name}',
  },
  'invoice_chase.firm.email': {
    subject: 'Overdue: invoice {invoice_number} from {business_name}',
    body: '<p>Hi {first_name},</p><p>Invoice {invoice_number} for {amount} is now {days_overdue} days overdue. Please pay it today, or contact us to arrange payment.</p><p><a href="{link}">Pay invoice {invoice_number}</a></p><p>{business_name}</p>',
  },
  'invoice_chase.final.sms': {
    subject: null,
    body: 'Final notice: invoice {invoice_number} for {amount} is {days_overdue} days overdue. Unless it is paid or a payment arrangement is agreed within 7 days, we may begin debt recovery. Pay here: {link}. {business_name}',
  },
  'invoice_chase.final.email': {
    subject: 'Final notice: invoice {invoice_number} from {business_name}',
    body: '<p>Hi {first_name},</p><p>Invoice {invoice_number} for {amount} is {days_overdue} days overdue. Unless it is paid or a payment arrangement is agreed within 7 days, we may begin debt recovery.</p><p><a href="{link}">Pay invoice {invoice_number}</a></p><p>{business_name}</p>',
  },
}

export interface ChaseValues {
  first_name: string
  business_name: string
  invoice_number: string
  amount: string
  due_date: string
  days_overdue: number
  link: string
}

function duePhrase(v: ChaseValues): string {
  if (v.days_overdue < 0) return `is due on ${v.due_date}`
  if (v.days_overdue === 0) return 'is due today'
  return `was due on ${v.due_date}`
}

/** The step's SMS text, or the email's subject, HTML and text. */
export async function chaseMessage(tx: postgres.TransactionSql, tone: ChaseTone, channel: 'sms' | 'email', v: ChaseValues) {
  const key = `invoice_chase.${tone}.${channel}`
  const own = await findMessageTemplate(tx, key)
  const template = own ?? CHASE_TEMPLATES[key]!
  const values = { ...v, days_overdue: String(v.days_overdue), due_phrase: duePhrase(v) }
  if (channel === 'sms') return { body: render(template.body, values) }
  const html = render(template.body, values, { html: true })
  return { subject: render(template.subject ?? 'Invoice {invoice_number}', values), body: html, text: htmlToText(html) }
}
