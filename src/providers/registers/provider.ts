// Licence and ABN checks against a public register (subcontractors.register and .verify). A
// provider answers what the register says about the details given; the default has no register and
// says so, so nothing is ever reported as checked when it was not.

export interface RegisterCheckRequest {
  abn: string | null
  licenceNumber: string | null
  licenceClass: string | null
  licenceState: string | null
}

export const REGISTER_OUTCOMES = ['not_checked', 'valid', 'expired', 'unknown', 'unavailable'] as const
export type RegisterOutcome = (typeof REGISTER_OUTCOMES)[number]

/**
 * The register itself says the licence is not in force (expired, cancelled or suspended: 'expired')
 * or does not exist ('unknown'). Verify refuses on these and dispatch leaves the subcontractor out;
 * 'not_checked' and 'unavailable' say nothing about the licence, so the details stand as given.
 */
export const LICENCE_NOT_IN_FORCE: readonly RegisterOutcome[] = ['expired', 'unknown']

export interface RegisterCheck {
  /** false when no register was consulted (the details are recorded as given). */
  checked: boolean
  /** Which register answered ('none' for the default). */
  source: string
  outcome: RegisterOutcome
  /** One sentence for the owner, e.g. "Recorded as given: not checked against a register." */
  detail: string
}

export interface RegisterProvider {
  readonly name: string
  check(request: RegisterCheckRequest): Promise<RegisterCheck>
}
