ALTER TABLE "report_details" ADD COLUMN "carried_from" text;--> statement-breakpoint
ALTER TABLE "report_files" ADD COLUMN "carried_lines" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "carry_forward_days" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "carried" jsonb;