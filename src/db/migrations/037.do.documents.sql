-- Documents filed by documents.auto_file (issue 24, item 3): what the bytes were (type sniffed from
-- them, size, sha256), where they are kept (storage backend and key: never the caller's filename),
-- what was read from them and how it was classified (with the words that decided it), and the job
-- or lead they were filed to (with how the match was made).
--
-- One row per company and content: the same file sent twice answers with the first document
-- (UNIQUE (company_id, sha256)). link_secret keys the HMAC of this document's signed download links,
-- so a link can be checked without a deployment-wide secret and never opens another document.
CREATE TABLE documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  media_type text NOT NULL CHECK (media_type IN ('application/pdf', 'image/jpeg', 'image/png', 'image/heic', 'image/webp')),
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  original_filename text,
  storage_backend text NOT NULL CHECK (storage_backend IN ('local', 's3')),
  storage_key text NOT NULL,
  document_type text NOT NULL CHECK (document_type IN ('receipt', 'supplier_invoice', 'compliance_certificate', 'swms', 'photo', 'plan', 'contract', 'other')),
  classification_reason text NOT NULL,
  text_source text NOT NULL CHECK (text_source IN ('pdf_text', 'ocr', 'none')),
  extracted_text text NOT NULL,
  supplier text,
  document_date date,
  total_cents bigint CHECK (total_cents >= 0),
  gst_cents bigint CHECK (gst_cents >= 0),
  abn text CHECK (abn ~ '^\d{11}$'),
  abn_valid boolean,
  job_id uuid REFERENCES jobs(id),
  lead_id uuid REFERENCES leads(id),
  match_method text NOT NULL CHECK (match_method IN ('given', 'job_reference', 'client_name', 'address', 'none')),
  match_reason text NOT NULL,
  link_secret bytea NOT NULL,
  created_by_key text,
  created_at timestamptz NOT NULL,
  UNIQUE (company_id, sha256)
);
CREATE INDEX documents_company_created ON documents (company_id, created_at DESC, id DESC);
CREATE INDEX documents_job ON documents (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX documents_lead ON documents (lead_id) WHERE lead_id IS NOT NULL;
SELECT enable_tenant_rls('documents');
