CREATE TABLE "judgments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"run_id" uuid NOT NULL,
	"other_run_id" uuid,
	"result" jsonb NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"created_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "judgments_kind_check" CHECK ("judgments"."kind" in ('pairwise', 'rubric')),
	CONSTRAINT "judgments_runs_check" CHECK (("judgments"."kind" = 'pairwise' and "judgments"."other_run_id" is not null and "judgments"."other_run_id" <> "judgments"."run_id") or ("judgments"."kind" = 'rubric' and "judgments"."other_run_id" is null))
);
--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_other_run_id_runs_id_fk" FOREIGN KEY ("other_run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judgments" ADD CONSTRAINT "judgments_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "judgments_run_idx" ON "judgments" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "judgments_other_run_idx" ON "judgments" USING btree ("other_run_id");--> statement-breakpoint
CREATE INDEX "judgments_created_by_idx" ON "judgments" USING btree ("created_by_id");