import Type from 'typebox'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { closed, Id, Trade } from '../shared-schema.js'

export const SwitchCompanyInput = Type.Object({ company_id: Id('Company to act for: one of operator.get_portfolio') }, closed)
export const SwitchCompanyResponse = Type.Object({
  company_id: Type.String(),
  business_name: Type.String(),
  previous_company_id: Type.String(),
  switched: Type.Boolean({ description: 'false: the key already acted for it' }),
})

export const AddMemberInput = Type.Object({ email: Type.String({ format: 'email', maxLength: 254, description: "Email the operator signed up their own company with" }) }, closed)
export const AddMemberResponse = Type.Object({ company_id: Type.String(), email: Type.String(), member: Type.Boolean() })

const Figures = {
  plan_slug: Type.String(),
  subscription_status: Type.String(),
  leads_this_month: Type.Integer(),
  open_quotes: Type.Integer({ description: 'Draft, Sent or Viewed' }),
  jobs_this_week: Type.Integer({ description: 'Scheduled Monday to Sunday, local time' }),
  outstanding_invoices: Type.Integer(),
  outstanding_amount: Dollars('incl', { description: 'Unpaid balance' }),
  overdue_invoices: Type.Integer(),
  overdue_amount: Dollars('incl', { description: 'Unpaid balance past due' }),
}

export const PortfolioCompany = Type.Object({
  company_id: Type.String(),
  business_name: Type.String(),
  time_zone: Type.String(),
  role: StringEnum(['owner', 'member'] as const),
  active: Type.Boolean({ description: 'The key acts for it' }),
  ...Figures,
})

export const PortfolioResponse = Type.Object({ active_company_id: Type.String(), companies: Type.Array(PortfolioCompany) })

const { plan_slug: _p, subscription_status: _s, ...Summable } = Figures
export const DashboardResponse = Type.Object({
  active_company_id: Type.String(),
  companies: Type.Array(PortfolioCompany),
  totals: Type.Object({ companies: Type.Integer(), ...Summable }),
})

export const SharedSuppliersInput = Type.Object({ trade: Type.Optional(Trade('Only subcontractors of this trade')) }, closed)
export const SharedSuppliersResponse = Type.Object({
  suppliers: Type.Array(Type.Object({
    abn: Type.String(),
    kind: StringEnum(['subcontractor'] as const),
    name: Type.String(),
    companies: Type.Array(Type.Object({
      company_id: Type.String(), business_name: Type.String(), subcontractor_id: Type.String(), name: Type.String(), status: Type.String(),
    })),
  })),
  price_book_suppliers: StringEnum(['not_recorded'] as const),
  note: Type.String(),
})
