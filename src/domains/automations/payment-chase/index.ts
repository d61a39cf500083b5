// Payment chase: a run per invoice from its first send (reaction to invoice.delivery_queued), told
// to look again when nothing more is owed (invoice.closed).
import type { InvoiceClosed, InvoiceDeliveryQueued } from '../../invoicing/events.js'
import { defineFeature } from '../engine/catalogue.js'
import { chasePaymentAutomation } from './automation.js'
import { chasePaymentOperation } from './chase-payment-tool.js'
import { checkInvoiceChase, invoiceChaseDefinition, nudgeInvoiceChase, planInvoiceChaseStep, startInvoiceChase } from './chase-payment.js'

export const paymentChaseFeature = defineFeature({
  name: 'payment-chase',
  automations: [chasePaymentAutomation],
  operations: [chasePaymentOperation],
  activities: (deps) => ({
    checkInvoiceChase: (input: Parameters<typeof checkInvoiceChase>[1]) => checkInvoiceChase(deps, input),
    planInvoiceChaseStep: (input: Parameters<typeof planInvoiceChaseStep>[1]) => planInvoiceChaseStep(deps, input),
  }),
  workflows: [invoiceChaseDefinition],
  reactions: [
    {
      name: 'payment-chase: start on the first send',
      on: ['invoice.delivery_queued'],
      // A later send leaves the running chase as it is; a credit note is never chased.
      async inTransaction({ deps, tx, start, event }) {
        const inv = event.payload as InvoiceDeliveryQueued
        if (inv.firstSend && inv.kind !== 'credit_note') await startInvoiceChase(deps, tx, start, { companyId: event.companyId, invoiceId: inv.invoiceId, dueDate: inv.dueDate })
      },
    },
    {
      name: 'payment-chase: look again',
      on: ['invoice.closed'],
      afterCommit(deps, event) {
        nudgeInvoiceChase(deps, event.companyId, (event.payload as InvoiceClosed).invoiceId)
      },
    },
  ],
})
