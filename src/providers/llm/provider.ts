// The language-model provider: one structured request in (system and user prompt, the JSON schema
// the answer must match, what it is for), one validated object out, saying who produced it. The
// caller always brings its own rules-and-templates answer, so the service works, and says so, with
// no model configured or when a model fails.
import type { Static, TSchema } from 'typebox'

/** What `produced_by` says: a configured model, or the deterministic local default. */
export type ProducedBy = `model:${string}` | 'local-default'

export interface StructuredRequest<T extends TSchema> {
  /** What the answer is for, e.g. "marketing.strategy": logged, and sent to the model as the request's user tag. */
  purpose: string
  system: string
  user: string
  /** The answer's schema: a model's answer that does not match it is not used. */
  schema: T
  /**
   * Rules the schema cannot say (no figure that was not given, no review gating): the reason a model's
   * answer breaks them, or null. Such an answer is treated as malformed.
   */
  check?: (value: Static<T>) => string | null
  /** The deterministic answer from rules and templates: the local default, and the fallback when a model fails. */
  localAnswer: () => Static<T>
}

export interface StructuredAnswer<V> {
  value: V
  producedBy: ProducedBy
  /** Why the local default answered although a model is configured (timeout, malformed answer); null otherwise. */
  note: string | null
}

export interface LanguageModelProvider {
  /** 'model:<name>' or 'local-default'. */
  readonly name: ProducedBy
  /** True when generate() may call a model (the call then counts toward the plan's LLM limit). */
  readonly usesModel: boolean
  generate<T extends TSchema>(request: StructuredRequest<T>): Promise<StructuredAnswer<Static<T>>>
}
