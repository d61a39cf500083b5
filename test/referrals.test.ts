// Company referrals (issue 22 item 4): ecosystem.referral_link gives the company's own code and link;
// a business that signs up with the code as referral_code is recorded as referred; once its first
// paid month is settled both wallets get REFERRAL_CREDIT_CENTS, once however often it is settled; a
// business cannot refer itself; an unknown code does not stop a sign-up. Through the MCP SDK client
// and HTTP; the ledger is read apart from the service. The credit (2000 cents) is set here, so the
// expected amounts do not come from the code under test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onFirstPaidPeriod } from '../src/domains/billing/first-paid.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

const CREDIT_CENTS = 2000
const ABN = '51824753556' // a valid ABN (checksum), from the onboarding tests
const OWN_CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/

let app: TestApp
const clients: Client[] = []
beforeAll(async () => {
  app = await startTestApp({ config: { REFERRAL_CREDIT_CENTS: CREDIT_CENTS } })
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await app?.stop()
})

type SignedUp = Awaited<ReturnType<typeof onboard>> & { client: Client }

async function company(overrides: Record<string, unknown> = {}): Promise<SignedUp> {
  const signedUp = await onboard(app, { plan: 'business', ...overrides })
  const client = await connectHttp(app, signedUp.api_key)
  clients.push(client)
  return Object.assign(signedUp, { client })
}

/** The company's referral entries, straight from the ledger. */
async function referralCredit(companyId: string) {
  return app.owner<{ cents: number; counterparty: string }[]>`
    select amount_cents::int as cents, counterparty_company_id as counterparty from wallet_entries where company_id = ${companyId} and kind = 'referral'`
}

/** Pays a sandbox checkout for a plan, as the operator would on the page. */
async function payCheckout(apiKey: string, plan: string) {
  const checkout = await app.call('POST', '/api/v1/billing/checkout', { key: apiKey, body: { plan_slug: plan } })
  expect(checkout.status).toBe(200)
  const paid = await fetch(`${checkout.body.checkout_url}/pay`, { method: 'POST' })
  expect(await paid.text()).toContain('is now active')
}

describe('ecosystem.referral_link', () => {
  it("gives the company's own code, the same on every call and transport, and a link to its page", async () => {
    const a = await company()
    expect(a.referral.code).toMatch(OWN_CODE)
    const linked = await tool(a.client, 'ecosystem.referral_link')
    expect(linked).toMatchObject({ code: a.referral.code, link: `${app.runtime.deps.urls.siteRoot}/r/${a.referral.code}`, sign_ups: 0, rewarded: 0, reward: CREDIT_CENTS / 100 })
    expect(linked.next_steps.map((s: { tool: string }) => s.tool)).toEqual(['wallet.balance'])
    const rest = await app.call('GET', '/api/v1/referral-link', { key: a.api_key })
    expect(rest.status).toBe(200)
    expect(rest.body.code).toBe(a.referral.code)
    expect((await tool(a.client, 'ecosystem.referral_link')).code).toBe(a.referral.code)

    const page = await fetch(linked.link)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(`&quot;referral_code&quot;: &quot;${a.referral.code}&quot;`)
    expect(html).toContain('$20.00')
    expect((await fetch(`${app.url}/r/ZZZZ2222`)).status).toBe(404)
  })

  it('makes the code on first ask for a company that has none, then keeps it', async () => {
    const a = await company()
    await app.owner`delete from company_referral_codes where company_id = ${a.company_id}`
    const first = await tool(a.client, 'ecosystem.referral_link')
    expect(first.code).toMatch(OWN_CODE)
    expect(first.code).not.toBe(a.referral.code)
    expect((await tool(a.client, 'ecosystem.referral_link')).code).toBe(first.code)
    const rows = await app.owner`select code from company_referral_codes where company_id = ${a.company_id}`
    expect(rows.map((r) => r.code)).toEqual([first.code])
  })
})

describe('signing up with a referral code', () => {
  it('records the referral; a trial earns nothing until its first paid month, then both get the credit once', async () => {
    const referrer = await company()
    // Typed as a person might: lower case, with a dash.
    const typed = `${referrer.referral.code.slice(0, 4).toLowerCase()}-${referrer.referral.code.slice(4)}`
    const referred = await company({ plan: 'starter', referral_code: typed })
    expect(referred.plan.subscription.status).toBe('trialing')
    expect(referred.referral).toMatchObject({ referred_by_code: referrer.referral.code })
    expect(referred.referral.code).not.toBe(referrer.referral.code)
    expect(referred.message).toContain(`Referral code ${referrer.referral.code} recorded`)
    const [row] = await app.owner`select referrer_company_id, reward_cents::int as reward, rewarded_at from referrals where company_id = ${referred.company_id}`
    expect(row).toEqual({ referrer_company_id: referrer.company_id, reward: CREDIT_CENTS, rewarded_at: null })
    expect(await tool(referrer.client, 'ecosystem.referral_link')).toMatchObject({ sign_ups: 1, rewarded: 0 })
    expect(await referralCredit(referrer.company_id)).toEqual([])
    expect(await referralCredit(referred.company_id)).toEqual([])

    // The first paid month: the sandbox checkout is paid.
    await payCheckout(referred.api_key, 'starter')
    expect(await referralCredit(referrer.company_id)).toEqual([{ cents: CREDIT_CENTS, counterparty: referred.company_id }])
    expect(await referralCredit(referred.company_id)).toEqual([{ cents: CREDIT_CENTS, counterparty: referrer.company_id }])
    expect(await tool(referrer.client, 'ecosystem.referral_link')).toMatchObject({ sign_ups: 1, rewarded: 1 })

    // Settled again: another paid checkout, the processor's event delivered twice, and two at once.
    await payCheckout(referred.api_key, 'professional')
    await app.owner.begin((tx) => onFirstPaidPeriod(tx, referred.company_id, 'evt_invoice_paid_1'))
    await app.owner.begin((tx) => onFirstPaidPeriod(tx, referred.company_id, 'evt_invoice_paid_1'))
    const racing = await Promise.all([1, 2].map(() => app.owner.begin((tx) => onFirstPaidPeriod(tx, referred.company_id, 'evt_invoice_paid_2'))))
    expect(racing.map((r) => r.referral)).toEqual(['already', 'already'])
    expect(await referralCredit(referrer.company_id)).toHaveLength(1)
    expect(await referralCredit(referred.company_id)).toHaveLength(1)
    // The cached balances still equal their ledgers' sums.
    for (const id of [referrer.company_id, referred.company_id]) {
      const [b] = await app.owner`select (select balance_cents::bigint from wallet_balances where company_id = ${id}) = (select sum(amount_cents) from wallet_entries where company_id = ${id}) as same`
      expect(b!.same).toBe(true)
    }
  })

  it('a paid plan activated at sign-up is the first paid month: both are credited at once, and the answer says so', async () => {
    const referrer = await company()
    const [before] = await app.owner`select balance_cents::int as cents from wallet_balances where company_id = ${referrer.company_id}`
    const referred = await company({ plan: 'professional', stripe_payment_method_id: 'pm_card_visa', referral_code: referrer.referral.code })
    expect(referred.plan.subscription.status).toBe('active')
    expect(referred.message).toContain('each got $20.00 of wallet credit')
    expect(referred.wallet.balance).toBe((app.config.WALLET_STARTING_CREDIT_CENTS + CREDIT_CENTS) / 100)
    const [after] = await app.owner`select balance_cents::int as cents from wallet_balances where company_id = ${referrer.company_id}`
    expect(after!.cents - before!.cents).toBe(CREDIT_CENTS)
    expect(await referralCredit(referred.company_id)).toEqual([{ cents: CREDIT_CENTS, counterparty: referrer.company_id }])
  })

  it('two sign-ups with concurrent first payments each give the referrer its credit once', async () => {
    const referrer = await company()
    const referred = await Promise.all([1, 2].map(() => company({ plan: 'starter', referral_code: referrer.referral.code })))
    await Promise.all(referred.map((r) => payCheckout(r.api_key, 'starter')))
    const credit = await referralCredit(referrer.company_id)
    expect(credit.map((c) => c.counterparty).sort()).toEqual(referred.map((r) => r.company_id).sort())
    expect(await tool(referrer.client, 'ecosystem.referral_link')).toMatchObject({ sign_ups: 2, rewarded: 2 })
  })

  it('a business cannot refer itself: its own code under the same ABN is refused by field, and nothing is created', async () => {
    const first = await company({ abn: ABN })
    const email = `self-${Date.now()}@example.com.au`
    const res = await app.call('POST', '/api/v1/onboard', {
      body: { business_name: 'Sparky Bros Second Account', email, plan: 'starter', abn: '51 824 753 556', referral_code: first.referral.code },
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('validation_error')
    expect(res.body.messages).toEqual([expect.stringMatching(/^referral_code: .*cannot refer itself/)])
    expect(await app.owner`select 1 from users where email = ${email}`).toHaveLength(0)
    // The database holds the rule too: a referral row naming its own company is refused.
    await expect(app.owner`insert into referrals (company_id, referrer_company_id, code, reward_cents, created_at)
      values (${first.company_id}, ${first.company_id}, ${first.referral.code}, 0, now())`).rejects.toThrow(/check/)
  })

  it('an unknown code records nothing and does not stop the sign-up, and the answer says so', async () => {
    const c = await company({ referral_code: 'NOSUCH99' })
    expect(c.referral).toMatchObject({ referred_by_code: null })
    expect(c.referral.note).toContain('NOSUCH99 matches no company')
    expect(c.message).toContain('no referral was recorded')
    expect(await app.owner`select 1 from referrals where company_id = ${c.company_id}`).toHaveLength(0)
    const [stored] = await app.owner`select referral_code from companies where id = ${c.company_id}`
    expect(stored!.referral_code).toBe('NOSUCH99') // kept as given
  })
})
