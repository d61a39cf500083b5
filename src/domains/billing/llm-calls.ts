// Model calls count toward the plan's monthly LLM-call limit, as SMS count toward the SMS limit: the
// call is counted (reserve_usage, atomic against the limit) in its own committed transaction before
// the model is asked, so concurrent calls can never pass the limit together. Over the limit the
// caller gets 429 rate_limited (REST) or an isError result (MCP) naming the limit, its reset and the
// plan that raises it, exactly as a refused SMS does.
//
// What counts: one tool call answered by the model is one LLM call, however many requests it took
// (the one retry after a malformed answer is ours to pay for). The local default costs nothing and
// counts nothing, and when a configured model fails and the local default answers instead, the
// count is given back: the caller got only what it gets free.
import type { Static, TSchema } from 'typebox'
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import type { StructuredAnswer, StructuredRequest } from '../../providers/llm/provider.js'
import { quotaExceeded, releaseMessages, reserveMessages } from './message-quota.js'

export async function generateMetered<T extends TSchema>(
  deps: Deps,
  companyId: string,
  request: StructuredRequest<T>,
): Promise<StructuredAnswer<Static<T>>> {
  if (!deps.llm.usesModel) return deps.llm.generate(request)
  const refusal = await withTenant(deps.db, companyId, (tx) =>
    reserveMessages(tx, { companyId, metric: 'llm_calls', count: 1, now: deps.clock.now() }))
  if (refusal) throw quotaExceeded(refusal, 'No model was called and nothing was generated.')
  const answer = await deps.llm.generate(request)
  if (answer.producedBy === 'local-default') {
    try {
      await withTenant(deps.db, companyId, (tx) => releaseMessages(tx, { metric: 'llm_calls', count: 1, now: deps.clock.now() }))
    } catch (err) {
      // The answer is good; a count not given back costs the caller one call, not the answer.
      deps.logger.warn({ err, companyId, purpose: request.purpose }, 'could not give back an unused LLM call')
    }
  }
  return answer
}
