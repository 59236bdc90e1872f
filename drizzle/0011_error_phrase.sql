ALTER TABLE "run_steps" ADD COLUMN "error_phrase" jsonb;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "error_phrase" jsonb;