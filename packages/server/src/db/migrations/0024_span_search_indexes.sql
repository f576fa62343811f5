DROP INDEX "spans_app_case";--> statement-breakpoint
DROP INDEX "spans_app_interface_time";--> statement-breakpoint
CREATE INDEX "spans_app_case_time" ON "spans" USING btree ("app_id","test_case","start_time") WHERE test_case is not null;--> statement-breakpoint
CREATE INDEX "spans_app_error_time" ON "spans" USING btree ("app_id","start_time") WHERE status_code = 2;--> statement-breakpoint
CREATE INDEX "spans_app_interface_time" ON "spans" USING btree ("app_id","interface","start_time") WHERE interface is not null;