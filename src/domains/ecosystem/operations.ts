import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { closed } from '../shared-schema.js'

export const ecosystemPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'ecosystem.referral_link',
    title: 'Referral link',
    description:
      "Get the company's referral link and code for inviting other trade businesses to the service (used as referral_code at onboarding), with the number of sign-ups it has brought. Free.",
    input: Type.Object({}, closed),
    access: { permission: 'read' },
    cost: 'free',
    annotations: READ,
    capability: 'Pricebook and marketing',
  }),
]
