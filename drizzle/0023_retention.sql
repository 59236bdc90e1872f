CREATE TABLE "audit_purges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_purges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"first_seq" bigint NOT NULL,
	"last_seq" bigint NOT NULL,
	"count" integer NOT NULL,
	"last_hash" text NOT NULL,
	"mac" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "legal_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid,
	"company_id" text,
	"reason" text NOT NULL,
	"placed_by_id" uuid NOT NULL,
	"placed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_by_id" uuid,
	"lifted_at" timestamp with time zone,
	"lift_reason" text,
	CONSTRAINT "legal_holds_target_check" CHECK (("legal_holds"."case_id" is null) <> ("legal_holds"."company_id" is null)),
	CONSTRAINT "legal_holds_reason_check" CHECK (length(btrim("legal_holds"."reason")) between 1 and 1000)
);
--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_placed_by_id_users_id_fk" FOREIGN KEY ("placed_by_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_lifted_by_id_users_id_fk" FOREIGN KEY ("lifted_by_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "legal_holds_case_idx" ON "legal_holds" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "legal_holds_company_idx" ON "legal_holds" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "legal_holds_placed_by_idx" ON "legal_holds" USING btree ("placed_by_id");--> statement-breakpoint
CREATE INDEX "legal_holds_lifted_by_idx" ON "legal_holds" USING btree ("lifted_by_id");--> statement-breakpoint
-- The purge (docs/retention.md) may delete audit entries and their checkpoints, but only those a
-- purge record covers: seq up to the newest audit_purges.last_seq. Everything else stays refused
-- as before (UPDATE always, DELETE above that seq, TRUNCATE). A record inserted without the audit
-- key to allow a delete does not carry a valid MAC, and verification reports it.
CREATE FUNCTION "audit_refuse_unpurged_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.seq <= (SELECT coalesce(max(last_seq), 0) FROM audit_purges) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
DROP TRIGGER "audit_log_append_only" ON "audit_log";
--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_log_purge_only" BEFORE DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_unpurged_delete"();
--> statement-breakpoint
DROP TRIGGER "audit_checkpoints_append_only" ON "audit_checkpoints";
--> statement-breakpoint
CREATE TRIGGER "audit_checkpoints_append_only" BEFORE UPDATE ON "audit_checkpoints" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_checkpoints_purge_only" BEFORE DELETE ON "audit_checkpoints" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_unpurged_delete"();
--> statement-breakpoint
CREATE TRIGGER "audit_purges_append_only" BEFORE UPDATE OR DELETE ON "audit_purges" FOR EACH ROW EXECUTE FUNCTION "audit_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_purges_no_truncate" BEFORE TRUNCATE ON "audit_purges" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_change"();
--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON "audit_purges" FROM PUBLIC;
