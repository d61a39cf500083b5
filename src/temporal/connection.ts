import { readFileSync } from 'node:fs'
import { Client, Connection, type ConnectionLike, type TLSConfig } from '@temporalio/client'
import type { Config } from '../config.js'
import { SEARCH_ATTRIBUTES } from './search-attributes.js'
import { tracingClientInterceptors } from './tracing.js'

/** What both the client's and the worker's connections need to reach a secured cluster (Temporal Cloud). */
export interface TemporalSecurity {
  tls?: TLSConfig
  apiKey?: string
}

/**
 * TLS and API key from the TEMPORAL_* settings, as Temporal's own environment configuration reads
 * them: an API key or a certificate turns TLS on, TEMPORAL_TLS decides when set. Files are read
 * once, at start, so a missing one fails the start rather than the first call.
 */
export function temporalSecurity(config: Pick<Config, 'TEMPORAL_API_KEY' | 'TEMPORAL_TLS' | 'TEMPORAL_TLS_CLIENT_CERT_PATH'
  | 'TEMPORAL_TLS_CLIENT_KEY_PATH' | 'TEMPORAL_TLS_SERVER_CA_CERT_PATH' | 'TEMPORAL_TLS_SERVER_NAME'>): TemporalSecurity {
  const cert = config.TEMPORAL_TLS_CLIENT_CERT_PATH
  const key = config.TEMPORAL_TLS_CLIENT_KEY_PATH
  if (Boolean(cert) !== Boolean(key)) {
    throw new Error('TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH go together: set both (mTLS) or neither.')
  }
  const ca = config.TEMPORAL_TLS_SERVER_CA_CERT_PATH
  const tlsOn = config.TEMPORAL_TLS ?? Boolean(config.TEMPORAL_API_KEY || cert || ca || config.TEMPORAL_TLS_SERVER_NAME)
  const tls: TLSConfig | undefined = tlsOn
    ? {
        ...(cert && key ? { clientCertPair: { crt: readFileSync(cert), key: readFileSync(key) } } : {}),
        ...(ca ? { serverRootCACertificate: readFileSync(ca) } : {}),
        ...(config.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: config.TEMPORAL_TLS_SERVER_NAME } : {}),
      }
    : undefined
  return { ...(tls ? { tls } : {}), ...(config.TEMPORAL_API_KEY ? { apiKey: config.TEMPORAL_API_KEY } : {}) }
}

/**
 * A client (with the tracing interceptor while tracing is on, temporal/tracing.ts) on its own connection, or on the in-process worker's NativeConnection: sharing it lets
 * starts ask for eager execution (the server hands the first workflow task straight back to this
 * process's worker, skipping the task-queue round trip).
 */
export async function connectClient(address: string, namespace: string, shared?: ConnectionLike, security: TemporalSecurity = {}): Promise<Client> {
  const connection = shared ?? await Connection.connect({ address, ...security })
  return new Client({ connection, namespace, interceptors: { workflow: tracingClientInterceptors() } })
}

/**
 * Registers our search attributes on an external server (the embedded dev server gets them from its
 * start flags). Already-registered attributes are fine. Temporal Cloud does not let a namespace's
 * clients add them: there they are created beforehand (README, "Running more than one instance"),
 * and this finds them and adds nothing.
 */
export async function ensureSearchAttributes(client: Client, namespace: string): Promise<void> {
  const existing = await client.connection.operatorService.listSearchAttributes({ namespace })
  const missing = Object.keys(SEARCH_ATTRIBUTES).filter((name) => !(name in (existing.customAttributes ?? {})))
  if (!missing.length) return
  try {
    await client.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, 2 /* INDEXED_VALUE_TYPE_KEYWORD */])),
    })
  } catch (error) {
    const list = missing.map((name) => `${name} (${SEARCH_ATTRIBUTES[name as keyof typeof SEARCH_ATTRIBUTES]})`).join(', ')
    throw new Error(`Could not register the search attributes ${list} in namespace ${namespace}: ${(error as Error).message}. ` +
      `On Temporal Cloud create them first, e.g. \`tcld namespace search-attributes add -n ${namespace} --sa "CompanyId=Keyword"\`.`, { cause: error })
  }
}
