CREATE TABLE "report_committers" (
	"report_id" uuid NOT NULL,
	"author" text NOT NULL,
	"changed_methods" integer NOT NULL,
	"measured_methods" integer NOT NULL,
	"covered_methods" integer NOT NULL,
	"line_covered" bigint NOT NULL,
	"line_total" bigint NOT NULL,
	CONSTRAINT "report_committers_report_id_author_pk" PRIMARY KEY("report_id","author")
);
--> statement-breakpoint
ALTER TABLE "report_committers" ADD CONSTRAINT "report_committers_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_committers_author_idx" ON "report_committers" USING btree ("author");