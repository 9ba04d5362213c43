-- The gateway role reads the log tables and nothing else: it may not create temporary tables in
-- this database (TEMP is granted to PUBLIC by default, so it is revoked from PUBLIC here; lqe's
-- database is its own), and every transaction it opens is read-only even if a session does not
-- say so.
DO $$
BEGIN
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END
$$;
ALTER ROLE lqe_gateway SET default_transaction_read_only = on;
