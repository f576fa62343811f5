CREATE TABLE "report_case_methods" (
	"report_id" uuid NOT NULL,
	"case_key" text NOT NULL,
	"file_path" text NOT NULL,
	"class_name" text NOT NULL,
	"method" text NOT NULL,
	"changed" boolean NOT NULL,
	CONSTRAINT "report_case_methods_report_id_case_key_file_path_class_name_method_pk" PRIMARY KEY("report_id","case_key","file_path","class_name","method")
);
--> statement-breakpoint
CREATE TABLE "report_requirements" (
	"report_id" uuid NOT NULL,
	"requirement_key" text NOT NULL,
	"commits" jsonb NOT NULL,
	"methods" jsonb NOT NULL,
	"changed_methods" integer NOT NULL,
	"covered_methods" integer NOT NULL,
	CONSTRAINT "report_requirements_report_id_requirement_key_pk" PRIMARY KEY("report_id","requirement_key")
);
--> statement-breakpoint
ALTER TABLE "report_case_methods" ADD CONSTRAINT "report_case_methods_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_requirements" ADD CONSTRAINT "report_requirements_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_case_methods_case_idx" ON "report_case_methods" USING btree ("case_key");--> statement-breakpoint
CREATE INDEX "report_case_methods_method_idx" ON "report_case_methods" USING btree ("file_path","method");--> statement-breakpoint
CREATE INDEX "report_requirements_key_idx" ON "report_requirements" USING btree ("requirement_key");