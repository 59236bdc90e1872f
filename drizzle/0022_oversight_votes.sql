CREATE TABLE "decision_votes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"voter_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"rationale" text NOT NULL,
	"conditions" text,
	"confirmed" jsonb NOT NULL,
	"overrides" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"quorum" integer NOT NULL,
	"decision_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "decision_votes_outcome_check" CHECK ("decision_votes"."outcome" in ('approve', 'approve_with_conditions', 'decline', 'return')),
	CONSTRAINT "decision_votes_quorum_check" CHECK ("decision_votes"."quorum" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "sole_proprietor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "decision_votes" ADD CONSTRAINT "decision_votes_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_votes" ADD CONSTRAINT "decision_votes_voter_id_users_id_fk" FOREIGN KEY ("voter_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decision_votes" ADD CONSTRAINT "decision_votes_decision_id_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."decisions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "decision_votes_round_voter_key" ON "decision_votes" USING btree ("case_id","submitted_at","voter_id");--> statement-breakpoint
CREATE INDEX "decision_votes_voter_idx" ON "decision_votes" USING btree ("voter_id");--> statement-breakpoint
CREATE INDEX "decision_votes_decision_idx" ON "decision_votes" USING btree ("decision_id");