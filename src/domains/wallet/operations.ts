import { defineOperation } from '../../core/operation.js'
import { READ, SEND, WRITE } from '../../core/annotations.js'
import { startCryptoDeposit, startDeposit } from './deposits.js'
import { afterDeposit, afterTransfer } from './next-steps.js'
import { BalanceInput, BalanceResponse, CryptoDepositInput, DepositInput, DepositResponse, HistoryInput, HistoryResponse, TransferInput, TransferResponse } from './schema.js'
import { getBalance, listHistory, transfer } from './service.js'

// SPEC 8: wallet tools are free. Credit is read with the financials scope; moving it needs admin.
export const walletOperations = [
  defineOperation({
    name: 'wallet.balance', domain: 'wallet', title: 'Wallet balance',
    description: 'Credit balance (AUD) and what MCP tool calls cost: reads $0.01, writes $0.05; REST, discovery, formation, billing and wallet tools free.',
    input: BalanceInput, output: BalanceResponse, access: { scope: 'financials', permission: 'read' }, cost: 'free', annotations: READ,
    rest: { method: 'GET', path: '/wallet' },
    run: (ctx) => getBalance(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'wallet.history', domain: 'wallet', title: 'Wallet history',
    description: 'Wallet entries newest first (grant, deposit, charge, refund, transfer_in/out, referral), each with amount, balance after and its tool or reference. Cursor paged.',
    input: HistoryInput, output: HistoryResponse, access: { scope: 'financials', permission: 'read' }, cost: 'free', annotations: READ,
    rest: { method: 'GET', path: '/wallet/history' },
    run: (ctx, input) => listHistory(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'wallet.deposit', domain: 'wallet', title: 'Deposit credit',
    description: 'Add credit: $5 to $10,000 (AUD). Returns pay_url for the human operator; the credit lands once the payment is confirmed.',
    input: DepositInput, output: DepositResponse, access: { scope: 'financials', permission: 'admin' }, cost: 'free', annotations: SEND,
    rest: { method: 'POST', path: '/wallet/deposits', status: 201 },
    run: (ctx, input) => startDeposit(ctx.deps, ctx.principal!, input),
    nextSteps: afterDeposit,
  }),
  defineOperation({
    name: 'wallet.transfer', domain: 'wallet', title: 'Transfer credit',
    description: "Move credit to another company's wallet, named by its id or its referral code: at most $5,000 (AUD) per transfer, never below zero, not to this company.",
    input: TransferInput, output: TransferResponse, access: { scope: 'financials', permission: 'admin' }, cost: 'free', annotations: WRITE,
    rest: { method: 'POST', path: '/wallet/transfers', status: 201 },
    run: (ctx, input) => transfer(ctx.deps, ctx.principal!, input),
    nextSteps: afterTransfer,
  }),
  defineOperation({
    name: 'wallet.crypto_deposit', domain: 'wallet', title: 'Deposit credit with crypto',
    description: 'Add credit ($5 to $10,000 AUD) paid in crypto: a pending deposit with pay_url, credited once confirmed. The default sandbox uses no real crypto network.',
    input: CryptoDepositInput, output: DepositResponse, access: { scope: 'financials', permission: 'admin' }, cost: 'free', annotations: SEND,
    rest: { method: 'POST', path: '/wallet/crypto-deposits', status: 201 },
    run: (ctx, input) => startCryptoDeposit(ctx.deps, ctx.principal!, input),
    nextSteps: afterDeposit,
  }),
]
