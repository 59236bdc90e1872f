CREATE TABLE "run_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"step_id" text NOT NULL,
	"part_key" text,
	"attempt" integer NOT NULL,
	"call_no" integer NOT NULL,
	"execution" text,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"is_llm" boolean NOT NULL,
	"request" "bytea" NOT NULL,
	"request_bytes" integer NOT NULL,
	"request_sha256" text NOT NULL,
	"answer" "bytea" NOT NULL,
	"answer_bytes" integer NOT NULL,
	"answer_sha256" text NOT NULL,
	"request_truncated" boolean DEFAULT false NOT NULL,
	"answer_truncated" boolean DEFAULT false NOT NULL,
	"finish_reason" text,
	"error" text,
	"usage" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "run_calls" ADD CONSTRAINT "run_calls_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_calls_run_step_idx" ON "run_calls" USING btree ("run_id","step_id");