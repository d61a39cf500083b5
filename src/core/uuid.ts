// The one UUID pattern. Ids from outside (arguments, cursors, provider callbacks, the tenant id
// spliced into SQL text) are checked with it before they reach a uuid column, where Postgres would
// answer a malformed one with an error (a 500) rather than "not found".
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether value is a UUID in either case (Postgres reads both). */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value)
