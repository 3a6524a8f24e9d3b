-- Enclave's two database roles, run by a superuser (idempotent: creates, or upgrades an existing cluster).
--   owner: owns the database and every table; `manage.py migrate` connects as it (and grants the app role).
--   app:   what web, worker and beat connect as; no DDL, and only INSERT and SELECT on the audit log.
-- psql variables: owner, owner_password, app, app_password, dbname, owner_createdb (CREATEDB or NOCREATEDB).
\set ON_ERROR_STOP 1

SELECT format('CREATE ROLE %I LOGIN', :'owner')
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'owner') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'app')
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app') \gexec

-- A superuser (or a member of the owner) could undo everything below: refuse rather than pretend.
SELECT set_config('enclave.app_role', :'app', false) AS app_role,
       set_config('enclave.owner_role', :'owner', false) AS owner_role \gset
DO $$
BEGIN
    IF current_setting('enclave.app_role') = current_setting('enclave.owner_role') THEN
        RAISE EXCEPTION 'ENCLAVE_DB_USER must differ from ENCLAVE_DB_OWNER_USER';
    END IF;
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_setting('enclave.app_role')) THEN
        RAISE EXCEPTION 'the application role % is a superuser: pick another ENCLAVE_DB_USER',
            current_setting('enclave.app_role');
    END IF;
END $$;

ALTER ROLE :"owner" LOGIN NOSUPERUSER :owner_createdb PASSWORD :'owner_password';
ALTER ROLE :"app" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'app_password';
SELECT format('REVOKE %I FROM %I', :'owner', :'app') WHERE pg_has_role(:'app', :'owner', 'MEMBER') \gexec

SELECT format('CREATE DATABASE %I OWNER %I', :'dbname', :'owner')
 WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'dbname') \gexec
ALTER DATABASE :"dbname" OWNER TO :"owner";

\connect :"dbname"
-- Objects an earlier version created as another role (a Compose superuser) move to the owner.
SELECT format('ALTER TABLE public.%I OWNER TO %I', tablename, :'owner')
  FROM pg_tables WHERE schemaname = 'public' AND tableowner <> :'owner' \gexec
SELECT format('ALTER FUNCTION public.%I(%s) OWNER TO %I', p.proname, pg_get_function_identity_arguments(p.oid), :'owner')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> :'owner'
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e') \gexec
-- Nobody but the owner creates objects in the schema (PostgreSQL 15 already revokes it from PUBLIC).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT CONNECT ON DATABASE :"dbname" TO :"app";
GRANT USAGE ON SCHEMA public TO :"app";
