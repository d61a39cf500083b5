// The default register provider: no register is consulted, and the answer says so plainly.
import type { RegisterCheck, RegisterCheckRequest, RegisterProvider } from './provider.js'

export const NOT_CHECKED_DETAIL = 'Recorded as given: not checked against a register (no licence or ABN register is configured).'

export class UncheckedRegister implements RegisterProvider {
  readonly name = 'none'
  check(_request: RegisterCheckRequest): Promise<RegisterCheck> {
    return Promise.resolve({ checked: false, source: 'none', outcome: 'not_checked', detail: NOT_CHECKED_DETAIL })
  }
}
