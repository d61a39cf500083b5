/**
 * A module loaded (or a client made from one) on its first use, and the same promise after: for the
 * large packages (provider SDKs, PDF and document libraries) most processes never call, so importing
 * the code that uses them does not load them (the API's heap, test/api-lazy-modules.test.ts).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () => (loaded ??= load())
}
