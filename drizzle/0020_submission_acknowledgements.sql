CREATE TABLE "submission_acknowledgements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"item_key" text NOT NULL,
	"run_id" uuid,
	"check_id" text,
	"evidence_id" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reason" text NOT NULL,
	"position" integer NOT NULL,
	"acknowledged_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "submission_acknowledgements_kind_check" CHECK ("submission_acknowledgements"."kind" in ('check', 'red_flag')),
	CONSTRAINT "submission_acknowledgements_reason_check" CHECK (length(btrim("submission_acknowledgements"."reason")) between 1 and 1000)
);
--> statement-breakpoint
ALTER TABLE "submission_acknowledgements" ADD CONSTRAINT "submission_acknowledgements_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_acknowledgements" ADD CONSTRAINT "submission_acknowledgements_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_acknowledgements" ADD CONSTRAINT "submission_acknowledgements_acknowledged_by_id_users_id_fk" FOREIGN KEY ("acknowledged_by_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "submission_acknowledgements_round_item_key" ON "submission_acknowledgements" USING btree ("case_id","submitted_at","item_key");--> statement-breakpoint
CREATE INDEX "submission_acknowledgements_run_idx" ON "submission_acknowledgements" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "submission_acknowledgements_by_idx" ON "submission_acknowledgements" USING btree ("acknowledged_by_id");