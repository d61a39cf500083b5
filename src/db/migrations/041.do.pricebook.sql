-- Price book (issue 25, item 2): the shipped catalogue, shared by every company and read-only to
-- the app, and each company's own price book (supplier price lists it imported, catalogue items it
-- copied), under tenant RLS.
--
-- The catalogue's rows come from src/domains/pricebook/catalogue/catalogue.json, loaded by the
-- seed step that runs after every migrate (src/db/seed-pricebook.ts): a change to the data file is
-- a new version of the rows, not a new migration.
--
-- Search: full-text (english stemming: "systems" finds "system") and trigram word similarity
-- (pg_trgm, created in migration 009: "sytem" finds "system") over one search_text column per
-- table, each with its GIN index.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE pricebook_catalogue (
  sku text PRIMARY KEY,
  description text NOT NULL,
  unit text NOT NULL,
  trade text NOT NULL,
  category text NOT NULL,
  subcategory text NOT NULL,
  -- Only where a dated source supports a figure (never invented): cents, what the range is of,
  -- the source and its date. All four or none.
  range_low_cents integer CHECK (range_low_cents >= 0),
  range_high_cents integer CHECK (range_high_cents >= range_low_cents),
  range_basis text,
  range_text text,
  range_source text,
  range_as_of text,
  search_text text GENERATED ALWAYS AS (lower(description || ' ' || trade || ' ' || category || ' ' || subcategory)) STORED,
  search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', description || ' ' || trade || ' ' || category || ' ' || subcategory)) STORED,
  CHECK ((range_low_cents IS NULL) = (range_source IS NULL) AND (range_source IS NULL) = (range_as_of IS NULL)
         AND (range_low_cents IS NULL) = (range_high_cents IS NULL))
);
CREATE INDEX pricebook_catalogue_trade ON pricebook_catalogue (trade, subcategory);
CREATE INDEX pricebook_catalogue_trgm ON pricebook_catalogue USING gin (search_text gin_trgm_ops);
CREATE INDEX pricebook_catalogue_fts ON pricebook_catalogue USING gin (search_vector);
-- Every company reads it; only the seed step (the database owner) writes it.
REVOKE INSERT, UPDATE, DELETE ON pricebook_catalogue FROM tradie_app;
GRANT SELECT ON pricebook_catalogue TO tradie_app;

-- The version of catalogue.json last loaded (its SHA-256), so the seed step is a no-op when unchanged.
CREATE TABLE pricebook_catalogue_versions (
  sha256 text PRIMARY KEY,
  items integer NOT NULL,
  loaded_at timestamptz NOT NULL DEFAULT now()
);
REVOKE ALL ON pricebook_catalogue_versions FROM tradie_app;

-- A company's own items. (supplier, item_code) is the identity a re-import updates by; a catalogue
-- item copied in has supplier 'catalogue' and its SKU as the code. Money is integer cents ex GST.
CREATE TABLE company_pricebook_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  supplier text NOT NULL CHECK (length(supplier) BETWEEN 1 AND 100),
  item_code text NOT NULL CHECK (length(item_code) BETWEEN 1 AND 100),
  description text NOT NULL,
  unit text,
  trade text,
  category text,
  subcategory text,
  cost_cents integer CHECK (cost_cents >= 0),
  sell_price_cents integer CHECK (sell_price_cents >= 0),
  markup_percent numeric(7, 2) CHECK (markup_percent >= 0),
  -- How the buy price was given: 'inclusive' prices had their GST (one eleventh) taken out.
  buy_price_gst text CHECK (buy_price_gst IN ('inclusive', 'exclusive')),
  catalogue_sku text,
  search_text text GENERATED ALWAYS AS (lower(description || ' ' || coalesce(trade, '') || ' ' || coalesce(category, '') || ' '
    || coalesce(subcategory, '') || ' ' || item_code || ' ' || supplier)) STORED,
  search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', description || ' ' || coalesce(trade, '') || ' '
    || coalesce(category, '') || ' ' || coalesce(subcategory, '') || ' ' || item_code || ' ' || supplier)) STORED,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (company_id, supplier, item_code)
);
CREATE INDEX company_pricebook_items_trade ON company_pricebook_items (company_id, trade, subcategory);
CREATE INDEX company_pricebook_items_trgm ON company_pricebook_items USING gin (search_text gin_trgm_ops);
CREATE INDEX company_pricebook_items_fts ON company_pricebook_items USING gin (search_vector);
SELECT enable_tenant_rls('company_pricebook_items');
