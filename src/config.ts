// Environment configuration, validated once at start-up so a typo fails fast and loudly.
import Type, { type Static } from 'typebox'
import { Compile } from 'typebox/compile'

const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  /** Owner connection: runs migrations. Defaults to the local trust-auth server. */
  DATABASE_URL: Type.String({ default: 'postgres://postgres@127.0.0.1:5432/tradie' }),
  /** Runtime connection as the non-owner role that Row Level Security applies to. Derived when unset. */
  APP_DATABASE_URL: Type.Optional(Type.String()),
  /** Connections in the app role's pool. */
  DB_POOL_MAX: Type.Integer({ minimum: 1, default: 20 }),
  /**
   * Named prepared statements on the app pool (postgres.js `prepare`). Turn off behind a pooler in
   * transaction mode that does not track them (PgBouncer before 1.21, or max_prepared_statements = 0).
   */
  DB_PREPARE: Type.Boolean({ default: true }),
  /**
   * The connection that LISTENs (the legacy-SSE bus and the webhook dispatcher): it must reach Postgres
   * directly, or through a pooler in session mode, since a transaction-mode pooler hands the session
   * that ran LISTEN to other clients. Any role that can connect will do (LISTEN needs no grant).
   * Unset: the app pool's address (APP_DATABASE_URL or its derived value).
   */
  DATABASE_LISTEN_URL: Type.Optional(Type.String()),
  APP_DB_PASSWORD: Type.Optional(Type.String()),
  /** Public address of the site; {site_root}. The API lives at {site_root}/api/v1. */
  PUBLIC_URL: Type.Optional(Type.String()),
  /** When unset, an embedded Temporal dev server is started. */
  TEMPORAL_ADDRESS: Type.Optional(Type.String()),
  TEMPORAL_NAMESPACE: Type.String({ default: 'default' }),
  /**
   * Temporal Cloud and TLS-terminated clusters, under the names Temporal's own environment
   * configuration (CLI and SDKs) uses (src/temporal/connection.ts). An API key turns TLS on;
   * TEMPORAL_TLS=false turns it off even then; a CA or client certificate turns it on.
   */
  TEMPORAL_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  TEMPORAL_TLS: Type.Optional(Type.Boolean()),
  /** mTLS: the client certificate and its private key, PEM files (Temporal Cloud's certificate authentication). */
  TEMPORAL_TLS_CLIENT_CERT_PATH: Type.Optional(Type.String({ minLength: 1 })),
  TEMPORAL_TLS_CLIENT_KEY_PATH: Type.Optional(Type.String({ minLength: 1 })),
  /** The CA that signed the server's certificate, PEM file; unset: the system's roots (enough for Temporal Cloud). */
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: Type.Optional(Type.String({ minLength: 1 })),
  /** The name the server's certificate is checked against, when it is not the host of TEMPORAL_ADDRESS. */
  TEMPORAL_TLS_SERVER_NAME: Type.Optional(Type.String({ minLength: 1 })),
  TEMPORAL_TASK_QUEUE: Type.String({ default: 'tradie-main' }),
  TEMPORAL_UI_PORT: Type.Integer({ default: 8233 }),
  TEMPORAL_DEV_PORT: Type.Integer({ default: 7233 }),
  TEMPORAL_CLI_PATH: Type.Optional(Type.String()),
  DATA_DIR: Type.String({ default: 'data' }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  /** Requests per minute per API key (burst protection; the monthly quota is separate). */
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 300 }),
  /** Onboarding attempts per client address per hour. */
  ONBOARD_LIMIT_PER_HOUR: Type.Integer({ minimum: 1, default: 10 }),
  /** Bearer token GET /metrics asks for; unset: open (scraped on a private network). */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 1 })),
  /** The worker-only process serves GET /metrics on this port (the API serves it on PORT); unset: not served. */
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  /**
   * OpenTelemetry traces (src/tracing.ts): the OTLP/HTTP collector's base address, e.g.
   * http://otel-collector:4318 (spans go to {it}/v1/traces). Unset: tracing is off, at no cost.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ minLength: 1 })),
  OTEL_SERVICE_NAME: Type.String({ default: 'tradie-ops' }),
  /**
   * The Temporal SDK's own metrics (worker task latency, slots, polls): host:port its Prometheus
   * endpoint listens on, e.g. 0.0.0.0:9464, set by the entry points (Runtime.install). Unset: not served.
   */
  TEMPORAL_METRICS_ADDRESS: Type.Optional(Type.String({ pattern: '^[^:]+:[0-9]+$' })),
  /** Trust X-Forwarded-For (set when running behind a proxy). */
  TRUST_PROXY: Type.Boolean({ default: false }),
  /** sandbox (default): local pay pages, no money moves. stripe: Stripe Billing for plans, Connect + Checkout for invoices. */
  PAYMENTS_PROVIDER: Type.Union([Type.Literal('sandbox'), Type.Literal('stripe')], { default: 'sandbox' }),
  /** Stripe secret key (sk_live_... or sk_test_...), for PAYMENTS_PROVIDER=stripe. */
  STRIPE_SECRET_KEY: Type.Optional(Type.String()),
  /** Signing secret (whsec_...) of the Connect webhook endpoint {base_url}/payments/webhooks/stripe. */
  STRIPE_WEBHOOK_SECRET: Type.Optional(Type.String()),
  /** Another Stripe API address, e.g. http://127.0.0.1:12111 for stripe-mock in tests. */
  STRIPE_API_URL: Type.Optional(Type.String()),
  /** Crypto deposits (wallet.crypto_deposit). sandbox (default, the only one so far): a local confirmation page; no real crypto network is used. */
  CRYPTO_PROVIDER: Type.Literal('sandbox', { default: 'sandbox' }),
  /** Trial length for a paid plan chosen without a payment method (fractional days allowed, for tests). */
  SMS_PROVIDER: Type.Union([Type.Literal('local'), Type.Literal('twilio')], { default: 'local' }),
  TWILIO_ACCOUNT_SID: Type.Optional(Type.String()),
  TWILIO_AUTH_TOKEN: Type.Optional(Type.String()),
  TWILIO_FROM: Type.Optional(Type.String()),
  TWILIO_BASE_URL: Type.Optional(Type.String()),
  /**
   * NSW Fair Trading Trades Register API (api.nsw.gov.au): with key and secret set, NSW licences are
   * checked against it at subcontractors.register/verify; without them, details are recorded as given.
   */
  NSW_TRADES_API_KEY: Type.Optional(Type.String()),
  NSW_TRADES_API_SECRET: Type.Optional(Type.String()),
  /** Another gateway address (default https://api.onegov.nsw.gov.au), e.g. a local server in tests. */
  NSW_TRADES_BASE_URL: Type.Optional(Type.String()),
  /**
   * Xero (integrations, issue 24): the app's OAuth 2 client id and secret. Both set (with
   * INTEGRATIONS_TOKEN_KEY): owners can connect Xero; unset: integrations.available_providers says
   * which settings are missing.
   */
  XERO_CLIENT_ID: Type.Optional(Type.String()),
  XERO_CLIENT_SECRET: Type.Optional(Type.String()),
  /** Xero's accounting API (default https://api.xero.com/api.xro/2.0); its host also answers GET /connections. */
  XERO_API_BASE_URL: Type.String({ default: 'https://api.xero.com/api.xro/2.0' }),
  /** Xero's token host (default https://identity.xero.com; the token endpoint is {it}/connect/token). */
  XERO_IDENTITY_URL: Type.String({ default: 'https://identity.xero.com' }),
  /** Xero's login host, where the owner authorises (default https://login.xero.com; {it}/identity/connect/authorize). */
  XERO_LOGIN_URL: Type.String({ default: 'https://login.xero.com' }),
  /** The webhook signing key Xero shows for the app's webhook (x-xero-signature is checked with it). */
  XERO_WEBHOOK_KEY: Type.Optional(Type.String()),
  /**
   * 32 bytes, base64: the AES-256-GCM key that encrypts integration tokens at rest. Rotation: put the
   * old key in INTEGRATIONS_TOKEN_PREVIOUS_KEYS (comma separated) and a new one here (docs/decisions.md).
   */
  INTEGRATIONS_TOKEN_KEY: Type.Optional(Type.String()),
  INTEGRATIONS_TOKEN_PREVIOUS_KEYS: Type.Optional(Type.String()),
  /** The most a provider call waits out Retry-Afters in total before it is reported as rate_limited (429 with retry_after). */
  INTEGRATIONS_MAX_RETRY_WAIT_MS: Type.Integer({ minimum: 0, default: 60_000 }),
  /** How often a connection's sync workflow runs a round when nothing asks for one sooner (integrations.sync, a webhook). */
  INTEGRATIONS_SYNC_INTERVAL_MS: Type.Integer({ minimum: 1000, default: 30 * 60_000 }),
  /** Records per sync activity: the cursor moves with each record, the activity ends after this many. */
  INTEGRATIONS_SYNC_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  /** The Xero bank account (its code) our payments are recorded into when they are sent to Xero. */
  XERO_PAYMENT_ACCOUNT_CODE: Type.String({ default: '090' }),
  /**
   * Language model (issue 25): any OpenAI-compatible chat-completions endpoint, e.g.
   * https://api.openai.com/v1 or a local server's /v1. With LLM_MODEL unset the deterministic local
   * default (rules and templates, no network) answers instead, and every result says which did.
   */
  LLM_BASE_URL: Type.Optional(Type.String()),
  LLM_API_KEY: Type.Optional(Type.String()),
  LLM_MODEL: Type.Optional(Type.String()),
  /** One model request's timeout; past it the call is answered by the local default (and says so). */
  LLM_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
  EMAIL_PROVIDER: Type.Union([Type.Literal('local'), Type.Literal('smtp')], { default: 'local' }),
  SMTP_URL: Type.Optional(Type.String()),
  EMAIL_FROM: Type.String({ default: 'Tradie Ops <no-reply@localhost>' }),
  /** Extra Host/Origin values the MCP endpoint accepts (DNS-rebinding protection), comma separated. */
  MCP_SSE_KEEPALIVE_MS: Type.Integer({ minimum: 10, default: 15000 }),
  ALLOWED_HOSTS: Type.String({ default: '' }),
  /** Fault injection for crash tests: 'before-workflow-start' kills the process after commit, before the start. */
  FAILPOINT: Type.Optional(Type.String()),
  TRIAL_DAYS: Type.Number({ minimum: 0, default: 14 }),
  /**
   * Where the worker runs in the same process as the code starting workflows, ask the server to hand
   * each new run's first task straight back (Temporal's eager workflow start). Off: every start goes
   * through the task queue.
   */
  TEMPORAL_EAGER_START: Type.Boolean({ default: true }),
  /** How long a decision (workflows.approve_action / reject_action) waits for a worker to answer before 503 worker_unavailable. */
  TEMPORAL_UPDATE_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 20000 }),
  /**
   * How long a workflow task waits on a worker's own (sticky) queue before any worker may take it.
   * A worker that died without saying so (kill -9, a lost host) holds its runs this long; the
   * SDK's default is 10 s. Lower means faster recovery after a crash, at the price of more full
   * history replays when a live worker is merely busy.
   */
  TEMPORAL_STICKY_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10000 }),
  OUTBOX_RELAY_INTERVAL_MS: Type.Integer({ minimum: 50, default: 5000 }),
  /**
   * Retention (src/domains/ops/retention.ts): a daily Temporal Schedule at RETENTION_HOUR_UTC deletes
   * expired idempotency keys, started workflow-outbox rows and settled events older than
   * RETENTION_OUTBOX_DAYS, and settled webhook deliveries (with their attempts) older than
   * RETENTION_DELIVERY_DAYS, RETENTION_BATCH_SIZE rows per statement. RETENTION_SCHEDULE=false leaves
   * the schedule alone (the tests: one per test app would pile up in the shared dev server).
   */
  RETENTION_SCHEDULE: Type.Boolean({ default: true }),
  RETENTION_HOUR_UTC: Type.Integer({ minimum: 0, maximum: 23, default: 3 }),
  RETENTION_OUTBOX_DAYS: Type.Number({ exclusiveMinimum: 0, default: 7 }),
  RETENTION_DELIVERY_DAYS: Type.Number({ exclusiveMinimum: 0, default: 30 }),
  RETENTION_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 10000, default: 1000 }),
  /**
   * How long a "day" of an automation's policy lasts (quote follow-up delays, payment-chase offsets).
   * Real days by default; tests and benches shorten it. Away from the default, chase steps are counted
   * from the start instead of falling at 9 am local on their calendar day.
   */
  AUTOMATION_DAY_MS: Type.Integer({ minimum: 1, default: 86_400_000 }),
  /** How long a subcontractor has to answer a dispatch offer before it goes to the next candidate (4 hours). */
  DISPATCH_OFFER_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 14_400_000 }),
  /** How long a dispatch held for the owner's approval (dispatch_requires_approval) waits before it expires unsent (48 hours, as the automations' default). */
  DISPATCH_APPROVAL_EXPIRY_MS: Type.Integer({ minimum: 1, default: 172_800_000 }),
  /** Credit a new company starts with, in cents (SPEC 8 prices tool calls in credit; this lets a company try the tools before its first deposit). */
  WALLET_STARTING_CREDIT_CENTS: Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 500 }),
  /** Wallet credit each side of a company referral gets once the referred company's first paid period is settled, in cents (our amount: the spec names none). */
  REFERRAL_CREDIT_CENTS: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 2000 }),
  /** Charge MCP tool calls to the wallet by cost class (on by default; off: every call is free, for a deployment that bills otherwise). */
  WALLET_CHARGING: Type.Boolean({ default: true }),
  /** Where documents.auto_file keeps files: local (default, DOCUMENTS_DIR on this machine's disk) or s3 (any S3-compatible store, the DOCUMENTS_S3_* settings). */
  DOCUMENTS_STORAGE: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  /** Folder for DOCUMENTS_STORAGE=local; default {DATA_DIR}/documents. */
  DOCUMENTS_DIR: Type.Optional(Type.String()),
  /** Largest file documents.auto_file accepts, in bytes (10 MB); a JSON or MCP call is also bounded by the 1 MB request body. */
  DOCUMENTS_MAX_BYTES: Type.Integer({ minimum: 1024, maximum: 50 * 1024 * 1024, default: 10 * 1024 * 1024 }),
  /** How long a signed download link (documents' file_url) stays valid, in seconds (1 hour). */
  DOCUMENTS_LINK_TTL_SECONDS: Type.Integer({ minimum: 10, maximum: 604_800, default: 3600 }),
  /** S3-compatible endpoint, e.g. https://s3.ap-southeast-2.amazonaws.com or http://127.0.0.1:9000; unset: AWS's own for the region. */
  DOCUMENTS_S3_ENDPOINT: Type.Optional(Type.String()),
  DOCUMENTS_S3_BUCKET: Type.Optional(Type.String()),
  DOCUMENTS_S3_REGION: Type.String({ default: 'ap-southeast-2' }),
  DOCUMENTS_S3_ACCESS_KEY_ID: Type.Optional(Type.String()),
  DOCUMENTS_S3_SECRET_ACCESS_KEY: Type.Optional(Type.String()),
  /** Path-style addressing (endpoint/bucket/key), which most S3-compatible servers need. */
  DOCUMENTS_S3_FORCE_PATH_STYLE: Type.Boolean({ default: true }),
  /** Let webhooks reach private, loopback and link-local addresses (tests with a local receiver). Off by default. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({ default: false }),
  /** Delays before each delivery attempt, ms, comma separated; default 0,5s,5m,30m,2h,5h,10h,10h. */
  WEBHOOK_RETRY_SCHEDULE_MS: Type.Optional(Type.String()),
  /** Per-attempt timeout. */
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 15000 }),
  /** A subscription failing this long is disabled and its owner emailed. */
  WEBHOOK_DISABLE_AFTER_DAYS: Type.Number({ minimum: 0, default: 5 }),
  /** How often the webhook dispatcher sweeps for deliveries it was not woken for. */
  WEBHOOK_SWEEP_INTERVAL_MS: Type.Integer({ minimum: 50, default: 2000 }),
  /** How long a subscription's delivery workflow waits with nothing to deliver before it ends (the next delivery starts it again). */
  WEBHOOK_WORKFLOW_IDLE_MS: Type.Integer({ minimum: 100, default: 600_000 }),
})

export type Config = Static<typeof ConfigSchema>
const validator = Compile(ConfigSchema)

/** Reads configuration from an env-like record; numbers and booleans are converted from strings. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key]
    if (value !== undefined && value !== '') raw[key] = value
  }
  const converted = validator.Convert(validator.Default(raw)) as Record<string, unknown>
  const merged = { ...converted, ...overrides }
  if (!validator.Check(merged)) {
    const problems = validator.Errors(merged).map((e) => `${e.instancePath || '/'} ${e.message}`)
    throw new Error(`Invalid configuration: ${problems.join('; ')}`)
  }
  return merged as Config
}

/** The runtime (RLS-bound) connection string: APP_DATABASE_URL, or DATABASE_URL with the app role swapped in. */
export function appDatabaseUrl(config: Config): string {
  if (config.APP_DATABASE_URL) return config.APP_DATABASE_URL
  const url = new URL(config.DATABASE_URL)
  url.username = 'tradie_app'
  url.password = config.APP_DB_PASSWORD ?? ''
  return url.toString()
}

export function siteRoot(config: Config): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '')
}
