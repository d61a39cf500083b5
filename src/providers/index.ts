// Chooses provider adapters from configuration; the honest local defaults need nothing.
import type { Config } from '../config.js'
import { accountingListings, missingXeroSettings } from './accounting/catalogue.js'
import type { AccountingProvider, AccountingProviders } from './accounting/provider.js'
import { XeroAccounting } from './accounting/xero.js'
import { LocalOutboxEmail } from './email/local.js'
import type { EmailProvider } from './email/provider.js'
import type { CryptoProvider } from './crypto/provider.js'
import { SandboxCrypto } from './crypto/sandbox.js'
import type { PaymentsProvider } from './payments/provider.js'
import { SandboxPayments } from './payments/sandbox.js'
import { StripePayments } from './payments/stripe.js'
import { SmtpEmail } from './email/smtp.js'
import type { RegisterProvider } from './registers/provider.js'
import { NswTradesRegister } from './registers/nsw-trades.js'
import { UncheckedRegister } from './registers/unchecked.js'
import { LocalDefaultModel } from './llm/local.js'
import { OpenAiCompatibleModel } from './llm/openai-compatible.js'
import type { LanguageModelProvider } from './llm/provider.js'
import type { Logger } from '../logger.js'
import { LocalOutboxSms } from './sms/local.js'
import type { SmsProvider } from './sms/provider.js'
import { TwilioSms } from './sms/twilio.js'

export function createSmsProvider(config: Config): SmsProvider {
  if (config.SMS_PROVIDER === 'local') return new LocalOutboxSms()
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = config
  if (!accountSid || !authToken || !from) throw new Error('SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM.')
  return new TwilioSms({ accountSid, authToken, from, baseUrl: config.TWILIO_BASE_URL })
}

export function createEmailProvider(config: Config): EmailProvider {
  if (config.EMAIL_PROVIDER === 'local') return new LocalOutboxEmail(config.EMAIL_FROM)
  if (!config.SMTP_URL) throw new Error('EMAIL_PROVIDER=smtp needs SMTP_URL (e.g. smtps://user:pass@smtp.example.com).')
  return new SmtpEmail(config.SMTP_URL, config.EMAIL_FROM)
}

export function createPaymentsProvider(config: Config, urls: { siteRoot: string }, now: () => Date): PaymentsProvider {
  if (config.PAYMENTS_PROVIDER === 'sandbox') return new SandboxPayments(urls, now)
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = config
  if (!secretKey || !webhookSecret) throw new Error('PAYMENTS_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.')
  return new StripePayments({ secretKey, webhookSecret, apiUrl: config.STRIPE_API_URL, urls, now })
}

/** Only the sandbox exists so far (config allows nothing else): it says plainly that no real network is used. */
export function createCryptoProvider(_config: Config, urls: { siteRoot: string }, now: () => Date): CryptoProvider {
  return new SandboxCrypto(urls, now)
}

/**
 * Licence checks: the NSW Trades Register when its API key and secret are set (NSW licences only; it
 * holds no ABNs), otherwise the honest default that consults no register and says so.
 */
export function createRegisterProvider(config: Config, now: () => Date): RegisterProvider {
  const { NSW_TRADES_API_KEY: apiKey, NSW_TRADES_API_SECRET: apiSecret } = config
  if (apiKey && apiSecret) return new NswTradesRegister({ apiKey, apiSecret, baseUrl: config.NSW_TRADES_BASE_URL, now })
  // Half a configuration would quietly check nothing; say so at start instead.
  if (apiKey || apiSecret) throw new Error('The NSW Trades Register needs both NSW_TRADES_API_KEY and NSW_TRADES_API_SECRET (or neither, to record licences as given).')
  return new UncheckedRegister()
}

/**
 * Accounting packages: Xero when its client id and secret (and the token key) are set; MYOB and
 * QuickBooks Online are listed as not available until their adapters are built.
 */
export function createAccountingProviders(config: Config, now: () => Date): AccountingProviders {
  const xero: AccountingProvider | null = missingXeroSettings(config).length === 0
    ? new XeroAccounting({
      clientId: config.XERO_CLIENT_ID!, clientSecret: config.XERO_CLIENT_SECRET!, apiBaseUrl: config.XERO_API_BASE_URL,
      identityUrl: config.XERO_IDENTITY_URL, loginUrl: config.XERO_LOGIN_URL, maxRetryWaitMs: config.INTEGRATIONS_MAX_RETRY_WAIT_MS, now,
    })
    : null
  return {
    listings: () => accountingListings(config),
    get: (id) => (id === 'xero' ? xero : null),
  }
}

/**
 * The language model: an OpenAI-compatible endpoint when LLM_MODEL is set (LLM_BASE_URL defaults to
 * OpenAI's), otherwise the deterministic local default, which needs no network and costs nothing.
 */
export function createLanguageModel(config: Config, logger?: Logger): LanguageModelProvider {
  if (!config.LLM_MODEL) {
    // A URL or key without a model would quietly use nothing; say so at start instead.
    if (config.LLM_BASE_URL || config.LLM_API_KEY) throw new Error('LLM_BASE_URL and LLM_API_KEY need LLM_MODEL (the model name to ask), or unset them all for the local default.')
    return new LocalDefaultModel()
  }
  return new OpenAiCompatibleModel({
    baseUrl: config.LLM_BASE_URL ?? 'https://api.openai.com/v1', apiKey: config.LLM_API_KEY, model: config.LLM_MODEL, timeoutMs: config.LLM_TIMEOUT_MS, logger,
  })
}
