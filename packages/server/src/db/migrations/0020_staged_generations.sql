ALTER TABLE "report_details" ADD COLUMN "generation" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_files" ADD COLUMN "generation" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "rows_generation" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_files" DROP CONSTRAINT "report_files_report_id_path_pk";--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_report_id_generation_path_pk" PRIMARY KEY("report_id","generation","path");--> statement-breakpoint
CREATE INDEX "report_details_report_generation_idx" ON "report_details" USING btree ("report_id","generation");
