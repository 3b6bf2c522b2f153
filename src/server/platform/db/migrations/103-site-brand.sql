-- The brand and legal facts an admin set in the console (decision 203), over config.json: one row.
CREATE TABLE site_brand (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- The parts of config.json the console changed, in config.json's own shape.
  settings jsonb NOT NULL DEFAULT '{}',
  logo bytea,
  logo_type text CHECK (logo_type IN ('image/png', 'image/svg+xml')),
  -- The logo's text per language: what it shows, for those who do not see it.
  logo_alt jsonb NOT NULL DEFAULT '{}',
  updated_by uuid REFERENCES accounts (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
