import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { EmptyInput } from '../../core/schema-helpers.js'
import { READ, SEND, WRITE } from '../../core/annotations.js'
import { connectPaymentAccount, getPaymentAccount } from './account.js'
import { afterConnect, afterSendLink } from './next-steps.js'
import { PaymentAccountResponse, SendLinkInput, SendLinkResponse } from './schema.js'
import { sendPaymentLink } from './send-link.js'

export const paymentOperations = [
  defineOperation({
    name: 'payments.send_link',
    domain: 'payments',
    title: 'Send a payment link',
    description:
      "Send the job's client a link to pay its oldest unpaid invoice online. Needs an active payment account (payments.connect_account). Use it to send or resend the link of an invoice already issued: it issues none (invoicing.generate does). Side effects: a Draft invoice becomes Sent and starts its payment chase (automation chase_payment, default on).",
    input: SendLinkInput,
    output: SendLinkResponse,
    access: { scope: 'financials', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    rest: { method: 'POST', path: '/jobs/:job_id/payment-link', feature: 'restWrite' },
    run: (ctx, input) => sendPaymentLink(ctx.deps, ctx.principal!, input),
    nextSteps: afterSendLink,
  }),
  defineOperation({
    name: 'payments.account',
    domain: 'payments',
    title: 'Payment account status',
    description: "The company's payment account with the processor (connected, pending sign-up, or active) and what to do next.",
    input: EmptyInput,
    output: PaymentAccountResponse,
    access: { scope: 'financials', permission: 'read' },
    cost: 'read',
    annotations: READ,
    beyondSpec: AGENT_PARITY,
    rest: { method: 'GET', path: '/payments/account' },
    run: (ctx) => getPaymentAccount(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'payments.connect_account',
    domain: 'payments',
    title: 'Connect a payment account',
    description: "Connects the company's payment account so clients can pay invoices online. The sandbox account is active at once; with Stripe this creates a connected account and returns onboarding_url, where the owner finishes Stripe's sign-up. Calling it again returns a fresh onboarding link.",
    input: EmptyInput,
    output: PaymentAccountResponse,
    access: { scope: 'financials', permission: 'admin' },
    cost: 'write',
    annotations: WRITE,
    beyondSpec: AGENT_PARITY,
    rest: { method: 'POST', path: '/payments/account', feature: 'restWrite' },
    run: (ctx) => connectPaymentAccount(ctx.deps, ctx.principal!),
    nextSteps: afterConnect,
  }),
]
