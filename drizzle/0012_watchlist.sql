CREATE TABLE "filing_sightings" (
	"evidence_id" text PRIMARY KEY NOT NULL,
	"company_id" text NOT NULL,
	"source" text NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_id" uuid NOT NULL,
	"company_id" text NOT NULL,
	"red_flags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"evidence_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"adverse_count" integer DEFAULT 0 NOT NULL,
	"rescreen_run_id" uuid,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"company_id" text NOT NULL,
	"case_id" uuid,
	"frequency" text NOT NULL,
	"auto_rescreen" boolean DEFAULT false NOT NULL,
	"adverse_threshold" integer DEFAULT 3 NOT NULL,
	"next_check_at" timestamp with time zone NOT NULL,
	"last_checked_at" timestamp with time zone,
	"last_error" text,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watch_entries_frequency_check" CHECK ("watch_entries"."frequency" in ('daily', 'weekly')),
	CONSTRAINT "watch_entries_threshold_check" CHECK ("watch_entries"."adverse_threshold" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "watch_seen" (
	"entry_id" uuid NOT NULL,
	"evidence_id" text NOT NULL,
	CONSTRAINT "watch_seen_entry_id_evidence_id_pk" PRIMARY KEY("entry_id","evidence_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "watch_alert_id" uuid;--> statement-breakpoint
ALTER TABLE "filing_sightings" ADD CONSTRAINT "filing_sightings_evidence_id_evidence_items_id_fk" FOREIGN KEY ("evidence_id") REFERENCES "public"."evidence_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "filing_sightings" ADD CONSTRAINT "filing_sightings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_alerts" ADD CONSTRAINT "watch_alerts_entry_id_watch_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."watch_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_alerts" ADD CONSTRAINT "watch_alerts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_alerts" ADD CONSTRAINT "watch_alerts_rescreen_run_id_runs_id_fk" FOREIGN KEY ("rescreen_run_id") REFERENCES "public"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_entries" ADD CONSTRAINT "watch_entries_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_entries" ADD CONSTRAINT "watch_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_entries" ADD CONSTRAINT "watch_entries_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_seen" ADD CONSTRAINT "watch_seen_entry_id_watch_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."watch_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "filing_sightings_company_seen_idx" ON "filing_sightings" USING btree ("company_id","seen_at");--> statement-breakpoint
CREATE INDEX "watch_alerts_entry_idx" ON "watch_alerts" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "watch_alerts_company_idx" ON "watch_alerts" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "watch_alerts_run_idx" ON "watch_alerts" USING btree ("rescreen_run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "watch_entries_owner_company_key" ON "watch_entries" USING btree ("owner_id","company_id");--> statement-breakpoint
CREATE INDEX "watch_entries_company_idx" ON "watch_entries" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "watch_entries_case_idx" ON "watch_entries" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "watch_entries_next_check_idx" ON "watch_entries" USING btree ("next_check_at");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_watch_alert_id_watch_alerts_id_fk" FOREIGN KEY ("watch_alert_id") REFERENCES "public"."watch_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_watch_alert_idx" ON "notifications" USING btree ("watch_alert_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('comment', 'reply', 'submitted', 'resubmitted', 'returned', 'decided', 'study_assigned', 'run_finished', 'run_failed', 'watch_alert'));