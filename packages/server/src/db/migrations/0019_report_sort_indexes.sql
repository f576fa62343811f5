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