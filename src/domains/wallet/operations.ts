import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND, WRITE } from '../../core/planned.js'
import { DateTime, Dollars, StringEnum } from '../../core/schema-helpers.js'
import { closed, Id, Paging } from '../shared-schema.js'

const capability = 'Wallet and credits'

export const walletPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'wallet.balance',
    title: 'Wallet balance',
    description:
      'Credit wallet balance in AUD. Credit pays for MCP tool calls: reads about $0.01, writes about $0.05; discovery, formation, billing and wallet tools are free. Free.',
    input: Type.Object({}, closed),
    access: { scope: 'financials', permission: 'read' },
    cost: 'free',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'wallet.deposit',
    title: 'Deposit credit',
    description:
      'Add credit to the wallet through the payment processor: minimum $5, maximum $10,000 per deposit (AUD). Returns a payment URL for the human operator to pay; the credit is added when the payment completes. Free.',
    input: Type.Object(
      {
        amount: Dollars('none', { minimum: 5, maximum: 10000, description: 'Amount, 5 to 10000' }),
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'admin' },
    cost: 'free',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'wallet.history',
    title: 'Wallet history',
    description: 'Wallet transactions, newest first: deposits, tool-call charges, transfers and refunds, each with amount in AUD and balance after. Free.',
    input: Type.Object(
      {
        type: Type.Optional(StringEnum(['deposit', 'charge', 'transfer_in', 'transfer_out', 'refund'] as const, { description: 'Only this kind of transaction' })),
        since: Type.Optional(DateTime({ description: 'Only transactions at or after this time' })),
        until: Type.Optional(DateTime({ description: 'Only transactions before this time' })),
        ...Paging,
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'read' },
    cost: 'free',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'wallet.transfer',
    title: 'Transfer credit',
    description: "Move credit from this company's wallet to another company's wallet. Maximum $5,000 per transfer (AUD); the balance must cover it. Free.",
    input: Type.Object(
      {
        to_company_id: Id('Company whose wallet receives the credit'),
        amount: Dollars('none', { exclusiveMinimum: 0, maximum: 5000, description: 'Amount, at most 5000' }),
        note: Type.Optional(Type.String({ maxLength: 200, description: 'Reference shown in both wallets\' history' })),
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'admin' },
    cost: 'free',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'wallet.crypto_deposit',
    title: 'Deposit credit with crypto',
    description:
      'Start a cryptocurrency deposit into the wallet: returns a payment address or invoice for the amount; the credit (in AUD) is added once the payment is confirmed. Free.',
    input: Type.Object(
      {
        amount: Dollars('none', { exclusiveMinimum: 0, description: 'Credit to add' }),
        asset: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Cryptocurrency to pay with, e.g. USDC' })),
      },
      closed,
    ),
    access: { scope: 'financials', permission: 'admin' },
    cost: 'free',
    annotations: SEND,
    capability,
  }),
]
