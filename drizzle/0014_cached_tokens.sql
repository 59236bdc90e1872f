ALTER TABLE "run_steps" ADD COLUMN "cached_tokens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "cached_tokens" integer DEFAULT 0 NOT NULL;