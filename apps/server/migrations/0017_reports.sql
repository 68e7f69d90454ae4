CREATE TABLE "reports" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"reporter_id" text NOT NULL,
	"reported_id" text NOT NULL,
	"category" text NOT NULL,
	"text" text NOT NULL,
	"match_id" text,
	"status" text DEFAULT 'open' NOT NULL,
	"resolved_at" bigint,
	"resolved_by" text,
	"action" text,
	"note" text,
	"message" text,
	"sanction_id" text
);
--> statement-breakpoint
CREATE INDEX "reports_status_idx" ON "reports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id","created_at");--> statement-breakpoint
CREATE INDEX "reports_reported_idx" ON "reports" USING btree ("reported_id","created_at");