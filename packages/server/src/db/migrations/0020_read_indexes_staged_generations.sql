ALTER TABLE "report_details" ADD COLUMN "generation" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_files" ADD COLUMN "generation" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "rows_generation" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_files" DROP CONSTRAINT "report_files_report_id_path_pk";--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_report_id_generation_path_pk" PRIMARY KEY("report_id","generation","path");--> statement-breakpoint
CREATE INDEX "apps_name_idx" ON "apps" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "report_details_report_generation_idx" ON "report_details" USING btree ("report_id","generation");--> statement-breakpoint
CREATE INDEX "report_details_class_rows_line_coverage_idx" ON "report_details" USING btree ("report_id",("line_covered"::float8 / nullif("line_total", 0)),"id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "report_details_class_rows_branch_coverage_idx" ON "report_details" USING btree ("report_id",("branch_covered"::float8 / nullif("branch_total", 0)),"id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "report_details_class_rows_instruction_coverage_idx" ON "report_details" USING btree ("report_id",("instruction_covered"::float8 / nullif("instruction_total", 0)),"id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "report_details_class_rows_method_coverage_idx" ON "report_details" USING btree ("report_id",("method_covered"::float8 / nullif("method_total", 0)),"id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "report_details_class_rows_complexity_coverage_idx" ON "report_details" USING btree ("report_id",("complexity_covered"::float8 / nullif("complexity_total", 0)),"id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "report_details_class_rows_line_total_idx" ON "report_details" USING btree ("report_id","line_total","id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "report_details_class_rows_line_covered_idx" ON "report_details" USING btree ("report_id","line_covered","id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "report_details_class_rows_branch_total_idx" ON "report_details" USING btree ("report_id","branch_total","id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "report_details_class_rows_code_author_idx" ON "report_details" USING btree ("report_id","code_author","id") WHERE "report_details"."class_id" is null;--> statement-breakpoint
CREATE INDEX "reports_branch_coverage_idx" ON "reports" USING btree ("test_type",("branch_covered"::float8 / nullif("branch_total", 0)),"id");--> statement-breakpoint
CREATE INDEX "reports_branch_coverage_desc_idx" ON "reports" USING btree ("test_type",("branch_covered"::float8 / nullif("branch_total", 0)) desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "reports_instruction_coverage_idx" ON "reports" USING btree ("test_type",("instruction_covered"::float8 / nullif("instruction_total", 0)),"id");--> statement-breakpoint
CREATE INDEX "reports_instruction_coverage_desc_idx" ON "reports" USING btree ("test_type",("instruction_covered"::float8 / nullif("instruction_total", 0)) desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "reports_method_coverage_idx" ON "reports" USING btree ("test_type",("method_covered"::float8 / nullif("method_total", 0)),"id");--> statement-breakpoint
CREATE INDEX "reports_method_coverage_desc_idx" ON "reports" USING btree ("test_type",("method_covered"::float8 / nullif("method_total", 0)) desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "reports_class_coverage_idx" ON "reports" USING btree ("test_type",("class_covered"::float8 / nullif("class_total", 0)),"id");--> statement-breakpoint
CREATE INDEX "reports_class_coverage_desc_idx" ON "reports" USING btree ("test_type",("class_covered"::float8 / nullif("class_total", 0)) desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "reports_complexity_coverage_idx" ON "reports" USING btree ("test_type",("complexity_covered"::float8 / nullif("complexity_total", 0)),"id");--> statement-breakpoint
CREATE INDEX "reports_complexity_coverage_desc_idx" ON "reports" USING btree ("test_type",("complexity_covered"::float8 / nullif("complexity_total", 0)) desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "reports_diff_line_coverage_idx" ON "reports" USING btree ("test_type",("diff_line_covered"::float8 / nullif("diff_line_total", 0)),"id");--> statement-breakpoint
CREATE INDEX "reports_diff_line_coverage_desc_idx" ON "reports" USING btree ("test_type",("diff_line_covered"::float8 / nullif("diff_line_total", 0)) desc nulls last,"id" desc);--> statement-breakpoint
CREATE INDEX "reports_name_sort_idx" ON "reports" USING btree ("test_type","name","id");--> statement-breakpoint
CREATE INDEX "reports_new_version_sort_idx" ON "reports" USING btree ("test_type","new_version","id");--> statement-breakpoint
CREATE INDEX "reports_created_at_sort_idx" ON "reports" USING btree ("test_type","created_at","id");--> statement-breakpoint
CREATE INDEX "reports_status_sort_idx" ON "reports" USING btree ("test_type","status","id");