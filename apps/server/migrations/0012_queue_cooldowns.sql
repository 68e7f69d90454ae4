CREATE TABLE "queue_cooldowns" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"offence" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"ends_at" bigint NOT NULL,
	"lifted_at" bigint,
	"lifted_by" text
);
--> statement-breakpoint
CREATE INDEX "queue_cooldowns_user_idx" ON "queue_cooldowns" USING btree ("user_id","created_at");