ALTER TABLE "mx_events" ADD COLUMN "redacts" text;--> statement-breakpoint
ALTER TABLE "mx_events" ADD COLUMN "redacted_because" jsonb;