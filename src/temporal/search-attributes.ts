import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common'

/** Every run carries its company so an operator can filter by company in the Temporal UI. */
export const CompanyIdKey = defineSearchAttributeKey('CompanyId', SearchAttributeType.KEYWORD)

/** Registered on start (embedded dev server flag, or the operator service for an external server). */
export const SEARCH_ATTRIBUTES = { CompanyId: 'KEYWORD' } as const

/** Every workflow input names its company: the CompanyId search attribute and the id prefix come from it. */
export interface CompanyScoped {
  companyId: string
}
