import { Client, Connection } from '@temporalio/client'
import { SEARCH_ATTRIBUTES } from './search-attributes.js'

export async function connectClient(address: string, namespace: string): Promise<Client> {
  const connection = await Connection.connect({ address })
  return new Client({ connection, namespace })
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
