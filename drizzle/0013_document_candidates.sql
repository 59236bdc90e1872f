CREATE TABLE "document_candidates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" text NOT NULL,
	"company_id" text NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"proposed_by" text NOT NULL,
	"reason" text NOT NULL,
	"category" text NOT NULL,
	"factor" text,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"event_date" date,
	"published_date" date NOT NULL,
	"page" integer,
	"char_start" integer NOT NULL,
	"char_end" integer NOT NULL,
	"evidence_id" text,
	"decided_by_id" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_candidates_status_check" CHECK ("document_candidates"."status" in ('proposed', 'accepted', 'rejected')),
	CONSTRAINT "document_candidates_proposed_by_check" CHECK ("document_candidates"."proposed_by" in ('rule', 'model')),
	CONSTRAINT "document_candidates_offsets_check" CHECK ("document_candidates"."char_start" >= 0 and "document_candidates"."char_end" > "document_candidates"."char_start")
);
--> statement-breakpoint
ALTER TABLE "document_candidates" ADD CONSTRAINT "document_candidates_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_candidates" ADD CONSTRAINT "document_candidates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_candidates" ADD CONSTRAINT "document_candidates_evidence_id_evidence_items_id_fk" FOREIGN KEY ("evidence_id") REFERENCES "public"."evidence_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_candidates" ADD CONSTRAINT "document_candidates_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_candidates_document_idx" ON "document_candidates" USING btree ("document_id","char_start");--> statement-breakpoint
CREATE INDEX "document_candidates_company_idx" ON "document_candidates" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "document_candidates_evidence_idx" ON "document_candidates" USING btree ("evidence_id");--> statement-breakpoint
CREATE INDEX "document_candidates_decided_by_idx" ON "document_candidates" USING btree ("decided_by_id");