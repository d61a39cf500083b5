-- One state or territory per company. Invoicing kept its own (011) beside the company's (021), and
-- the two could disagree: scheduling by business day read one, recovery advice and payment claims
-- the other. Invoicing now reads and writes companies.state; where only invoicing had one, it moves
-- there first (the company's own wins where both are set).
UPDATE companies c SET state = s.state
  FROM invoicing_settings s
  WHERE s.company_id = c.id AND c.state IS NULL AND s.state IS NOT NULL;

ALTER TABLE invoicing_settings DROP COLUMN state;
