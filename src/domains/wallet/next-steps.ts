// What follows a wallet change (core/next-steps.ts): a pending deposit waits for the human operator
// to pay; a transfer's effect shows in the history.
import type { NextStep } from '../../core/next-steps.js'

export function afterDeposit(output: { deposit: { id: string; pay_url: string } }): NextStep[] {
  return [{ tool: 'wallet.history', why: `Give pay_url to the human operator; once paid, a deposit entry with reference ${output.deposit.id} appears and wallet.balance rises.` }]
}

export function afterTransfer(output: { transfer: { id: string } }): NextStep[] {
  return [{ tool: 'wallet.history', why: `The transfer_out entry with reference ${output.transfer.id} is there; the other company sees a transfer_in with the same reference.` }]
}
