CREATE TABLE "queue_alerts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"threshold" integer,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"quiet_from" integer,
	"quiet_to" integer,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"state" text DEFAULT 'armed' NOT NULL,
	"fired_at" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queue_alerts" ADD CONSTRAINT "queue_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_alerts_state_threshold_idx" ON "queue_alerts" USING btree ("state","threshold");