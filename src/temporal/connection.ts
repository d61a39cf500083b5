import { Client, Connection, type ConnectionLike } from '@temporalio/client'
import { SEARCH_ATTRIBUTES } from './search-attributes.js'
import { tracingClientInterceptors } from './tracing.js'

/**
 * A client (with the tracing interceptor while tracing is on, temporal/tracing.ts) on its own connection, or on the in-process worker's NativeConnection: sharing it lets
 * starts ask for eager execution (the server hands the first workflow task straight back to this
 * process's worker, skipping the task-queue round trip).
 */
export async function connectClient(address: string, namespace: string, shared?: ConnectionLike): Promise<Client> {
  const connection = shared ?? await Connection.connect({ address })
  return new Client({ connection, namespace, interceptors: { workflow: tracingClientInterceptors() } })
}

/**
 * Registers our search attributes on an external server (the embedded dev server gets them from its
 * start flags). Already-registered attributes are fine.
 */
export async function ensureSearchAttributes(client: Client, namespace: string): Promise<void> {
  const existing = await client.connection.operatorService.listSearchAttributes({ namespace })
  const missing = Object.keys(SEARCH_ATTRIBUTES).filter((name) => !(name in (existing.customAttributes ?? {})))
  if (!missing.length) return
  await client.connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((name) => [name, 2 /* INDEXED_VALUE_TYPE_KEYWORD */])),
  })
}
