CREATE TABLE "evidence_tag_overrides" (
	"evidence_id" text PRIMARY KEY NOT NULL,
	"factor" text NOT NULL,
	"polarity" text NOT NULL,
	"user_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_chunks" ADD COLUMN "search_tokens" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "document_chunks" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce("document_chunks"."heading", '')), 'A') || setweight(to_tsvector('english', "document_chunks"."text"), 'B') || to_tsvector('simple', "document_chunks"."search_tokens")) STORED;--> statement-breakpoint
ALTER TABLE "evidence_items" ADD COLUMN "created_by_id" uuid;--> statement-breakpoint
ALTER TABLE "evidence_items" ADD COLUMN "search_tokens" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "evidence_items" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', "evidence_items"."title"), 'A') || setweight(to_tsvector('english', "evidence_items"."text"), 'B') || to_tsvector('simple', "evidence_items"."search_tokens")) STORED;--> statement-breakpoint
ALTER TABLE "evidence_items" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "evidence_tag_overrides" ADD CONSTRAINT "evidence_tag_overrides_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evidence_tag_overrides_user_idx" ON "evidence_tag_overrides" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "evidence_items" ADD CONSTRAINT "evidence_items_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_chunks_search_idx" ON "document_chunks" USING gin ("search");--> statement-breakpoint
CREATE INDEX "evidence_items_created_by_idx" ON "evidence_items" USING btree ("created_by_id");--> statement-breakpoint
CREATE INDEX "evidence_items_search_idx" ON "evidence_items" USING gin ("search");