// Limits every input meets before schema validation. TypeBox validates recursively, so a few KB of
// nested brackets would overflow the stack; Postgres refuses NUL in text and lone UTF-16 surrogates
// in jsonb, which would surface as a 500 after the caller's input was accepted. One iterative walk
// (no recursion, so no depth can break it) refuses all of these up front, naming the field.
import { AppError, validationError } from './errors.js'

export const INPUT_LIMITS = {
  /** Largest JSON body, in bytes, on REST and MCP. */
  maxBodyBytes: 1024 * 1024,
  /** Deepest nesting of objects and arrays in one input (the deepest real schema is 4). */
  maxDepth: 32,
  /** Most values (strings, numbers, array items, object members) in one input. */
  maxValues: 20_000,
} as const

export const MAX_BODY_TEXT = '1 MB'

// An unpaired high surrogate (not followed by a low one) or an unpaired low surrogate.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** What is wrong with one piece of text, or null: a NUL character or a lone surrogate. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which is not allowed in text'
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate (not valid Unicode text)'
  return null
}

const fieldName = (path: string, key: string) => (path ? `${path}.${key}` : key)

/**
 * Throws validation_error (or payload_too_large for too many values) when the input nests too
 * deeply, holds too many values, or carries text Postgres cannot store. `root` names a top-level
 * value that is not an object member (e.g. "body").
 */
export function guardInput(value: unknown, root = 'body'): void {
  const problems: string[] = []
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }]
  let values = 0
  while (stack.length > 0 && problems.length < 10) {
    const item = stack.pop()!
    if (++values > INPUT_LIMITS.maxValues) {
      throw new AppError('payload_too_large', `The input holds more than ${INPUT_LIMITS.maxValues} values. Send less per call.`)
    }
    const { path, depth } = item
    if (typeof item.value === 'string') {
      const problem = textProblem(item.value)
      if (problem) problems.push(`${path || root}: ${problem}`)
      continue
    }
    if (typeof item.value !== 'object' || item.value === null) continue
    if (depth >= INPUT_LIMITS.maxDepth) {
      // Named by its top-level field: the full path would be 32 levels of [0].
      problems.push(`${/^[^.[]*/.exec(path)![0] || root}: nests deeper than ${INPUT_LIMITS.maxDepth} levels`)
      continue
    }
    if (Array.isArray(item.value)) {
      for (let i = item.value.length - 1; i >= 0; i--) stack.push({ value: item.value[i], path: `${path || root}[${i}]`, depth: depth + 1 })
      continue
    }
    for (const [key, member] of Object.entries(item.value)) {
      const keyProblem = textProblem(key)
      if (keyProblem) {
        problems.push(`${path || root}: a field name ${keyProblem}`)
        continue
      }
      stack.push({ value: member, path: fieldName(path, key), depth: depth + 1 })
    }
  }
  if (problems.length) throw validationError(problems)
}
