ALTER TABLE "studies" ADD COLUMN "seed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "study_assignments" ADD COLUMN "saved_at" timestamp with time zone;