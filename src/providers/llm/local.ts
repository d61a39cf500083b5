// The honest local default: no network, no model. It returns the caller's own rules-and-templates
// answer, checked against the same schema a model's answer would be, so both paths return one shape.
// request.check is for a model's answers: the local answer is built from the caller's own data and
// words, and its rules are its templates' (tested there).
import type { Static, TSchema } from 'typebox'
import { describeErrors, validatorFor } from '../../core/validation.js'
import type { LanguageModelProvider, StructuredAnswer, StructuredRequest } from './provider.js'

/** The local answer, validated: a template that breaks its own schema is our bug, and says where. */
export function localAnswerOf<T extends TSchema>(request: StructuredRequest<T>, note: string | null): StructuredAnswer<Static<T>> {
  const value = request.localAnswer()
  if (!validatorFor(request.schema).Check(value)) {
    throw new Error(`The local default for ${request.purpose} broke its schema: ${describeErrors(request.schema, value).join('; ')}`)
  }
  return { value, producedBy: 'local-default', note }
}

export class LocalDefaultModel implements LanguageModelProvider {
  readonly name = 'local-default' as const
  readonly usesModel = false

  async generate<T extends TSchema>(request: StructuredRequest<T>): Promise<StructuredAnswer<Static<T>>> {
    return localAnswerOf(request, null)
  }
}
