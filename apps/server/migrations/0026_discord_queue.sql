CREATE TABLE "discord_accept_dms" (
	"phase_id" text NOT NULL,
	"user_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"message_id" text NOT NULL,
	CONSTRAINT "discord_accept_dms_phase_id_user_id_pk" PRIMARY KEY("phase_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "queue_entries" ADD COLUMN "via" text DEFAULT 'web' NOT NULL;--> statement-breakpoint
ALTER TABLE "discord_accept_dms" ADD CONSTRAINT "discord_accept_dms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;