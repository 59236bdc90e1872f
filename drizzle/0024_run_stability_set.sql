ALTER TABLE "runs" ADD COLUMN "stability_set_id" uuid;--> statement-breakpoint
CREATE INDEX "runs_stability_set_idx" ON "runs" USING btree ("stability_set_id");