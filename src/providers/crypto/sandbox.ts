// The local crypto sandbox: no blockchain, no wallet, no money. The pay URL is this service's own
// page (src/transports/pages/wallet-pages.ts), where a person confirms the pretend payment and the
// deposit is credited as a real provider's confirmation would credit it.
import { randomBytes } from 'node:crypto'
import type { CryptoDepositRequest, CryptoDepositSession, CryptoProvider } from './provider.js'

const TTL_MS = 60 * 60 * 1000

export class SandboxCrypto implements CryptoProvider {
  readonly name = 'sandbox'
  readonly simulated = true
  constructor(private readonly urls: { siteRoot: string }, private readonly now: () => Date) {}

  async createDeposit(request: CryptoDepositRequest): Promise<CryptoDepositSession> {
    return {
      id: `cinv_sandbox_${randomBytes(12).toString('base64url')}`,
      payUrl: `${this.urls.siteRoot}/sandbox/crypto/${request.payToken}`,
      address: null,
      expiresAt: new Date(this.now().getTime() + TTL_MS),
    }
  }
}
