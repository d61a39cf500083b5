// Instant lead response: a new lead is answered within 30 seconds (reaction to lead.created).
import { defineFeature } from '../engine/catalogue.js'
import { instantResponseAutomation } from './automation.js'
import { instantResponseDefinition, instantResponseStart, markLeadContacted, planInstantResponse, previewInstantResponse } from './instant-response.js'
import { automationOperations } from './operation.js'

export const instantResponseFeature = defineFeature({
  name: 'instant-response',
  automations: [instantResponseAutomation],
  operations: automationOperations,
  activities: (deps) => ({
    planInstantResponse: (input: { companyId: string; leadId: string }) => planInstantResponse(deps, input.companyId, input.leadId),
    markLeadContacted: (input: { companyId: string; leadId: string }) => markLeadContacted(deps, input.companyId, input.leadId),
  }),
  workflows: [instantResponseDefinition],
  reactions: [{
    name: 'instant-response: answer a new lead',
    on: ['lead.created'],
    // Queued with the lead (write-then-start); the promise runs from when the lead arrived.
    async inTransaction({ start, event }) {
      const { lead } = event.payload as { lead: { id: string; phone: string | null; email: string | null; createdAt: string } }
      if (lead.phone || lead.email) await start(instantResponseStart(event.companyId, lead.id, new Date(lead.createdAt)))
    },
    // leads.create's dry run: the reply the run would send (the lead, not yet committed, is in tx).
    async preview({ tx, event }) {
      const { lead } = event.payload as { lead: { id: string } }
      return (await previewInstantResponse(tx, lead.id)).messages
    },
  }],
})
