ALTER TABLE "report_details" ADD COLUMN "instruction_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "report_details" ADD COLUMN "branch_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "report_details" ADD COLUMN "line_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "report_details" ADD COLUMN "complexity_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "report_details" ADD COLUMN "method_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "report_details" ADD COLUMN "class_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "instruction_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "branch_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "line_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "complexity_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "method_covered_at_most" bigint;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "class_covered_at_most" bigint;