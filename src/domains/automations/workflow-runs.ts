// The workflows that run on demand. All of them are built now (workflows.sync_contact and
// workflows.search_ads_pipeline in reporting-automations.ts); the list stays for tools still to come.
import type { AnyOperation } from '../../core/operation.js'

export const workflowRunPlannedTools: AnyOperation[] = []
