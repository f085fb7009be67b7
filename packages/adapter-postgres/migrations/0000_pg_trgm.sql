-- Trigram matching for listing search. Trusted since PostgreSQL 13, so the
-- database owner may create it without superuser rights.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
