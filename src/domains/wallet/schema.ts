// Wallet tool inputs and outputs. Credit is bought from this service to pay for its own tool calls;
// it is not a supply of goods or services to a customer, so every amount is 'GST not applicable'
// (docs/decisions.md, "The wallet").
import Type from 'typebox'
import { DateTime, Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { MAX_LIMIT } from '../../core/paging.js'

/** SPEC 8: a deposit is 5 to 10,000 dollars; a transfer at most 5,000. */
export const DEPOSIT_MIN_DOLLARS = 5
export const DEPOSIT_MAX_DOLLARS = 10_000
export const TRANSFER_MAX_DOLLARS = 5_000

export const ENTRY_KINDS = ['grant', 'deposit', 'charge', 'refund', 'transfer_out', 'transfer_in', 'referral'] as const

const closed = { additionalProperties: false } as const
const depositAmount = Dollars('none', { minimum: DEPOSIT_MIN_DOLLARS, maximum: DEPOSIT_MAX_DOLLARS, description: 'Credit to add, 5 to 10000' })

export const BalanceInput = Type.Object({}, closed)
export const BalanceResponse = Type.Object({
  balance: Dollars('none', { description: 'Credit held' }),
  prices: Type.Object({
    read: Dollars('none', { description: 'A read tool call over MCP' }),
    write: Dollars('none', { description: 'A write tool call over MCP' }),
    free: Type.String({ description: 'Which calls cost nothing' }),
  }),
  deposit_with: Type.Literal('wallet.deposit'),
})

export const HistoryInput = Type.Object(
  {
    type: Type.Optional(StringEnum(ENTRY_KINDS, { description: 'Only this kind of entry' })),
    since: Type.Optional(DateTime({ description: 'Only entries at or after this time' })),
    until: Type.Optional(DateTime({ description: 'Only entries before this time' })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: "The previous page's next_cursor, unchanged" })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 50, description: 'Page size' })),
  },
  closed,
)

export const WalletEntry = Type.Object({
  id: Type.String(),
  kind: StringEnum(ENTRY_KINDS),
  amount: Dollars('none', { description: 'Signed: credit positive, debit negative' }),
  balance_after: Dollars('none', { description: 'Balance after this entry' }),
  operation: Nullable(Type.String({ description: 'The tool a charge or refund is for' })),
  reference: Nullable(Type.String({ description: 'Deposit id, transfer id or refunded charge' })),
  counterparty_company_id: Nullable(Type.String({ description: 'The other company of a transfer' })),
  note: Nullable(Type.String()),
  created_at: DateTime(),
})

export const HistoryResponse = Type.Object({
  entries: Type.Array(WalletEntry, { description: 'Newest first' }),
  limit: Type.Integer(),
  next_cursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last' })),
})

export const DepositInput = Type.Object({ amount: depositAmount }, closed)

export const CryptoDepositInput = Type.Object(
  {
    amount: depositAmount,
    asset: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{2,10}$', description: 'Coin to pay with; default USDC' })),
  },
  closed,
)

export const Deposit = Type.Object({
  id: Type.String(),
  method: StringEnum(['card', 'crypto'] as const),
  provider: Type.String({ description: 'Who takes the payment; sandbox moves no money' }),
  amount: Dollars('none', { description: 'Credit added once paid' }),
  asset: Nullable(Type.String()),
  status: StringEnum(['pending', 'credited'] as const),
  pay_url: Type.String({ description: 'For the human operator to pay' }),
  address: Nullable(Type.String({ description: 'Crypto address to pay; null when only the pay page is offered' })),
  expires_at: Nullable(DateTime()),
  created_at: DateTime(),
})

export const DepositResponse = Type.Object({
  deposit: Deposit,
  message: Type.String(),
})

export const TransferInput = Type.Object(
  {
    to_company_id: Type.Optional(Type.String({ format: 'uuid', description: 'Company whose wallet receives the credit (or give to_referral_code)' })),
    to_referral_code: Type.Optional(Type.String({ minLength: 4, maxLength: 20, description: 'The receiving company\'s own referral code (ecosystem.referral_link), instead of its id' })),
    amount: Dollars('none', { exclusiveMinimum: 0, maximum: TRANSFER_MAX_DOLLARS, description: 'Credit to move, at most 5000' }),
    note: Type.Optional(Type.String({ maxLength: 200, description: "Shown in both wallets' history" })),
  },
  closed,
)

export const TransferResponse = Type.Object({
  transfer: Type.Object({
    id: Type.String({ description: 'The reference in both histories' }),
    to_company_id: Type.String(),
    amount: Dollars('none'),
    note: Nullable(Type.String()),
  }),
  balance: Dollars('none', { description: 'This wallet after the transfer' }),
})
