ALTER TABLE "applications" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "decision_note" text DEFAULT '' NOT NULL;