import Type from 'typebox'
import { Dollars } from '../../core/schema-helpers.js'

export const ReferralLinkOutput = Type.Object({
  code: Type.String({ description: "The company's own code, the same on every call; a new business gives it as referral_code at sign-up" }),
  link: Type.String({ description: 'Page to share: it shows the code and how to sign up with it' }),
  sign_ups: Type.Integer({ minimum: 0, description: 'Businesses that signed up with the code' }),
  rewarded: Type.Integer({ minimum: 0, description: 'Of those, how many paid a first month, which credited both wallets' }),
  reward: Dollars('none', { description: 'Wallet credit each side gets per referral' }),
  note: Type.String(),
})
