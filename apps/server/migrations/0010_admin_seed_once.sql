ALTER TABLE "users" ADD COLUMN "role_decided" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Roles held today were decided before this column existed: the list must not undo a later demotion.
UPDATE "users" SET "role_decided" = true WHERE "role" = 'ADMIN';
