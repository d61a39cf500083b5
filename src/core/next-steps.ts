// What a state-changing result tells the caller to do next. An agent learned each consequence of a
// write from the response after the fact (a deposit invoice from a redirect, follow-ups booked by a
// send) and guessed the tool that came after it. An operation that declares `nextSteps` returns
// `next_steps` beside its own output: each a tool to call and why, computed from what the call
// just did (the quote's status, whether a job was opened, whether a payment account is connected).
// Written once with tool names; each transport then names the step its own way (core/next-step.ts:
// a REST caller also gets the route).
import Type, { type TSchema } from 'typebox'

export interface NextStep {
  /** The tool to call next, e.g. quotes.send. */
  tool: string
  /** Why, with the ids to pass: "Send Q-00001 to Jane by SMS and email (quote_id ...)". */
  why: string
}

export const NextStepSchema = Type.Object({
  tool: Type.String({ description: 'Tool to call next' }),
  route: Type.Optional(Type.String({ description: 'The same step over REST (REST responses only)' })),
  why: Type.String(),
})

export const NextStepsSchema = Type.Array(NextStepSchema, { description: 'What to do next after this change, most likely first; empty when nothing follows' })

/** The output schema with next_steps added (an object schema; anything else is a definition error). */
export function withNextStepsSchema<O extends TSchema>(output: O, name: string): O {
  // Property schemas carry their own optional marker, so spreading them keeps `required` as it was.
  const { properties, type, required: _required, ...options } = output as unknown as { type?: string; properties?: Record<string, TSchema>; required?: string[] }
  if (type !== 'object' || !properties) throw new Error(`${name}: nextSteps needs an object output schema`)
  return Type.Object({ ...properties, next_steps: NextStepsSchema }, options) as unknown as O
}

/** A step written with a condition inline: falsy entries drop out. */
export function steps(...list: (NextStep | false | null | undefined)[]): NextStep[] {
  return list.filter((step): step is NextStep => Boolean(step))
}

/** After a dry run, the one step: the same call for real. */
export const realCallStep = (tool: string): NextStep => ({ tool, why: 'This was a dry run: nothing was sent or changed. Call again without dry_run to send exactly these messages.' })
