ALTER TABLE "runs" ADD COLUMN "worker_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "lease_expires_at" timestamp with time zone;