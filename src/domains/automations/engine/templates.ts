// Per-company message templates with sensible defaults. Placeholders: {first_name}, {name},
// {business_name}, {service}, {suburb}, {business_phone}.
import type postgres from 'postgres'
import { escapeHtml } from '../../../core/html-escape.js'
import { findMessageTemplate } from './queries/settings.js'

export interface Template {
  subject: string | null
  body: string
}

export const DEFAULT_TEMPLATES: Record<string, Template> = {
  'instant_response.sms': {
    subject: null,
    body: 'Hi {first_name}, thanks for contacting {business_name} about {service}. We have your enquiry and will be in touch shortly.',
  },
  'instant_response.email': {
    subject: 'Thanks for your enquiry, {first_name}',
    body: '<p>Hi {first_name},</p><p>Thanks for contacting {business_name} about {service}. We have your enquiry and will be in touch shortly.</p><p>{business_name}</p>',
  },
}

export async function loadTemplate(tx: postgres.TransactionSql, key: string): Promise<Template> {
  const row = await findMessageTemplate(tx, key)
  const fallback = DEFAULT_TEMPLATES[key]
  if (!row && !fallback) throw new Error(`No template ${key}`)
  return row ?? fallback!
}

/** Fills placeholders; for HTML bodies the values are escaped. */
export function render(template: string, values: Record<string, string>, options: { html?: boolean } = {}): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => {
    const value = values[key]
    if (value === undefined) return whole
    return options.html ? escapeHtml(value) : value
  })
}

export function htmlToText(html: string): string {
  return html.replace(/<\/p>\s*/g, '\n\n').replace(/<br\s*\/?>/g, '\n').replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").trim()
}
