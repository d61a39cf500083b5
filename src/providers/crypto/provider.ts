// Crypto deposits into the credit wallet (wallet.crypto_deposit). A provider turns a pending
// deposit into something to pay (an address or a hosted invoice) and reports it paid; the service
// credits the wallet once, on that confirmation. Only the local sandbox exists today: it moves no
// real cryptocurrency, and every answer that comes from it says so.

export interface CryptoDepositRequest {
  companyId: string
  depositId: string
  amountCents: number
  /** What the payer pays with, e.g. USDC. */
  asset: string
  /** The sandbox's confirmation page is found by it. */
  payToken: string
}

export interface CryptoDepositSession {
  /** The provider's id for the payment request. */
  id: string
  /** Where the payer pays (or, in the sandbox, confirms). */
  payUrl: string
  /** The address to send to; null when the pay page is the only way (the sandbox). */
  address: string | null
  expiresAt: Date
}

export interface CryptoProvider {
  readonly name: string
  /** True when no real network is used (nothing paid here is real money). */
  readonly simulated: boolean
  createDeposit(request: CryptoDepositRequest): Promise<CryptoDepositSession>
}
