-- Invoices (deposit, progress, final, credit notes), their payments, the company's payment account
-- and invoicing settings, billable extras on jobs, and processor events seen (each recorded once).

CREATE TABLE invoicing_settings (
  company_id uuid PRIMARY KEY REFERENCES companies(id),
  payment_terms_days integer NOT NULL DEFAULT 14 CHECK (payment_terms_days BETWEEN 0 AND 120),
  default_deposit_percent numeric(5, 2) CHECK (default_deposit_percent > 0 AND default_deposit_percent <= 100),
  -- Card surcharge, off by default, never above what the company says card acceptance costs it.
  card_surcharge_percent numeric(5, 2) CHECK (card_surcharge_percent > 0),
  card_acceptance_cost_percent numeric(5, 2) CHECK (card_acceptance_cost_percent > 0 AND card_acceptance_cost_percent <= 10),
  state text CHECK (state IN ('NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT')),
  payment_instructions text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (card_surcharge_percent IS NULL OR card_surcharge_percent <= card_acceptance_cost_percent)
);

-- A quote may ask for a deposit: a percentage of its total, or a fixed amount incl. GST.
ALTER TABLE quotes ADD COLUMN deposit_percent numeric(5, 2) CHECK (deposit_percent > 0 AND deposit_percent <= 100);
ALTER TABLE quotes ADD COLUMN deposit_cents bigint CHECK (deposit_cents > 0);
ALTER TABLE quotes ADD CONSTRAINT quotes_one_deposit_rule CHECK (deposit_percent IS NULL OR deposit_cents IS NULL);

-- Billable work beyond the quote (variations), invoiced on the job's final invoice.
CREATE TABLE job_extras (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  job_id uuid NOT NULL REFERENCES jobs(id),
  description text NOT NULL,
  quantity numeric(12, 3) NOT NULL CHECK (quantity > 0),
  unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_extras_job ON job_extras (job_id);

-- Gapless per company and series (INV, CN), as quote_counters.
CREATE TABLE invoice_counters (
  company_id uuid NOT NULL REFERENCES companies(id),
  series text NOT NULL CHECK (series IN ('INV', 'CN')),
  last_number integer NOT NULL,
  PRIMARY KEY (company_id, series)
);

CREATE TABLE invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  lead_id uuid NOT NULL REFERENCES leads(id),
  job_id uuid REFERENCES jobs(id),
  quote_id uuid REFERENCES quotes(id),
  invoice_number text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('deposit', 'progress', 'final', 'credit_note')),
  -- Overdue is not stored: a Sent or Partially Paid invoice past its due date (Sydney) reads Overdue.
  status text NOT NULL CHECK (status IN ('Draft', 'Sent', 'Partially Paid', 'Paid', 'Void')),
  subtotal_cents bigint NOT NULL CHECK (subtotal_cents >= 0),
  gst_cents bigint NOT NULL CHECK (gst_cents >= 0),
  total_cents bigint NOT NULL,
  amount_paid_cents bigint NOT NULL DEFAULT 0,
  amount_credited_cents bigint NOT NULL DEFAULT 0,
  issue_date date NOT NULL,
  due_date date NOT NULL,
  notes text,
  public_token text NOT NULL UNIQUE,
  claim jsonb,                       -- how a deposit or progress claim was asked for
  credits_invoice_id uuid REFERENCES invoices(id),
  replaces_invoice_id uuid REFERENCES invoices(id),
  void_reason text,
  voided_at timestamptz,
  sent_count integer NOT NULL DEFAULT 0,
  sent_at timestamptz,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, invoice_number),
  CHECK (total_cents = subtotal_cents + gst_cents),
  CHECK (amount_paid_cents >= 0 AND amount_credited_cents >= 0 AND amount_paid_cents + amount_credited_cents <= total_cents),
  CHECK ((kind = 'credit_note') = (credits_invoice_id IS NOT NULL))
);
CREATE INDEX invoices_company_created ON invoices (company_id, created_at DESC, id DESC);
CREATE INDEX invoices_company_status ON invoices (company_id, status, created_at DESC, id DESC);
CREATE INDEX invoices_company_kind ON invoices (company_id, kind, created_at DESC, id DESC);
CREATE INDEX invoices_job ON invoices (job_id, created_at);
CREATE INDEX invoices_quote ON invoices (quote_id);
-- Open invoices: the chase scan by due date, and the Overdue list page newest first.
CREATE INDEX invoices_open_due ON invoices (company_id, due_date) WHERE status IN ('Sent', 'Partially Paid') AND kind <> 'credit_note';
CREATE INDEX invoices_company_open_created ON invoices (company_id, created_at DESC, id DESC) WHERE status IN ('Sent', 'Partially Paid') AND kind <> 'credit_note';

CREATE TABLE invoice_line_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  position integer NOT NULL,
  description text NOT NULL,
  quantity numeric(12, 3) NOT NULL,
  unit_price_cents bigint NOT NULL,   -- ex GST; negative on a line netting off an earlier invoice
  total_cents bigint NOT NULL,        -- ex GST
  gst_cents bigint NOT NULL,
  source text NOT NULL CHECK (source IN ('quote_line', 'job_amount', 'extra', 'claim', 'less_invoiced', 'credit')),
  source_position integer,            -- the quote line a quote_line/claim line comes from
  source_invoice_id uuid REFERENCES invoices(id),
  UNIQUE (invoice_id, position)
);

-- The company's account with the payment processor, which its customers pay into.
CREATE TABLE payment_accounts (
  company_id uuid PRIMARY KEY REFERENCES companies(id),
  provider text NOT NULL,
  account_id text NOT NULL,
  charges_enabled boolean NOT NULL,
  onboarding_url text,
  connected_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, account_id)
);

CREATE TABLE payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  invoice_id uuid NOT NULL REFERENCES invoices(id),
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0),  -- applied to the invoice
  surcharge_cents bigint NOT NULL DEFAULT 0 CHECK (surcharge_cents >= 0),
  excess_cents bigint NOT NULL DEFAULT 0 CHECK (excess_cents >= 0), -- taken by a processor beyond the balance: to refund
  CHECK (amount_cents + excess_cents > 0),
  method text NOT NULL CHECK (method IN ('card', 'bank_transfer', 'cash', 'cheque', 'other')),
  provider text NOT NULL,             -- sandbox, stripe, manual
  provider_payment_id text NOT NULL,
  reference text,
  received_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, provider, provider_payment_id)
);
CREATE INDEX payments_invoice ON payments (invoice_id);
CREATE INDEX payments_company_received ON payments (company_id, received_at DESC);

-- Each processor event is acted on once: a replay finds its row and changes nothing.
CREATE TABLE processor_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  company_id uuid NOT NULL REFERENCES companies(id),
  event_type text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);

CREATE TABLE invoice_reminders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  invoice_id uuid NOT NULL REFERENCES invoices(id),
  tone text NOT NULL CHECK (tone IN ('friendly', 'firm', 'final')),
  days_overdue integer NOT NULL,
  channels text[] NOT NULL,
  workflow_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invoice_reminders_invoice ON invoice_reminders (invoice_id, created_at);

ALTER TABLE communications ADD COLUMN invoice_id uuid REFERENCES invoices(id);
ALTER TABLE communications ADD COLUMN attachments jsonb;

SELECT enable_tenant_rls(t) FROM unnest(ARRAY['invoicing_settings', 'job_extras', 'invoice_counters', 'invoices',
  'invoice_line_items', 'payment_accounts', 'payments', 'processor_events', 'invoice_reminders']) AS t;

-- The public invoice page carries only its unguessable token; this tells which company it belongs to.
CREATE FUNCTION invoice_company_by_token(p_token text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM invoices WHERE public_token = p_token $$;
REVOKE ALL ON FUNCTION invoice_company_by_token(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION invoice_company_by_token(text) TO tradie_app;

-- A processor's account event names only the account: this tells whose it is.
CREATE FUNCTION payment_account_company(p_provider text, p_account_id text) RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT company_id FROM payment_accounts WHERE provider = p_provider AND account_id = p_account_id $$;
REVOKE ALL ON FUNCTION payment_account_company(text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION payment_account_company(text, text) TO tradie_app;
