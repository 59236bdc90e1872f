CREATE TABLE "audit_genesis" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"last_unkeyed" bigint NOT NULL,
	"head_hash" text NOT NULL,
	"mac" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_genesis_one_row" CHECK ("audit_genesis"."id")
);
--> statement-breakpoint
-- Where keying of the audit log began (lib/db/queries/audit.ts). Append-only like the log: the
-- row is written once, by the app holding the audit key: on an upgraded database by the process
-- that applies this migration (lib/db/client.ts), on a new one by the first entry. A superuser can
-- still delete it with the triggers off; verification then fails, and nothing rewrites it.
CREATE TRIGGER "audit_genesis_append_only" BEFORE UPDATE OR DELETE ON "audit_genesis" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_genesis_no_truncate" BEFORE TRUNCATE ON "audit_genesis" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_change"();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_genesis" FROM PUBLIC;
