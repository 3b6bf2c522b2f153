-- The pages' pictures editors upload in the console (decision 204): the upload as it came, and the
-- files the pages serve, made from it once, so that every instance serves them after a restart
-- without making them again.
CREATE TABLE site_pictures (
  slot text PRIMARY KEY CHECK (slot IN ('home', 'about')),
  original bytea NOT NULL,
  type text NOT NULL CHECK (type IN ('image/jpeg', 'image/png', 'image/webp')),
  -- Upright (its EXIF orientation applied), in pixels.
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  -- Names the served files (a new upload, new names: they are cached for a year).
  hash text NOT NULL,
  -- What the picture shows, per language, for those who do not see it.
  alt jsonb NOT NULL DEFAULT '{}',
  updated_by uuid REFERENCES accounts (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE site_picture_variants (
  slot text NOT NULL REFERENCES site_pictures (slot) ON DELETE CASCADE,
  format text NOT NULL CHECK (format IN ('avif', 'webp', 'jpeg')),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  bytes bytea NOT NULL,
  PRIMARY KEY (slot, format, width)
);
