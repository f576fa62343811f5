-- Spans are partitioned by UTC day (one partition per day, created on demand by the traces
-- repository); retention drops a day's partition. Hand-edited: drizzle-kit has no PARTITION BY.
CREATE TABLE "spans" (
	"app_id" uuid NOT NULL,
	"trace_id" text NOT NULL,
	"span_id" text NOT NULL,
	"parent_span_id" text,
	"name" text NOT NULL,
	"kind" smallint NOT NULL,
	"service" text NOT NULL,
	"app_version" text,
	"start_time" timestamp (6) with time zone NOT NULL,
	"start_ns" bigint NOT NULL,
	"duration_ns" bigint NOT NULL,
	"status_code" smallint NOT NULL,
	"status_message" text NOT NULL,
	"interface" text,
	"exception_type" text,
	"exception_message" text,
	"exception_stack" text,
	"code_function" text,
	"code_namespace" text,
	"code_file" text,
	"code_line" integer,
	"test_case" text,
	"attributes" jsonb NOT NULL,
	"resource" jsonb NOT NULL,
	"events" jsonb NOT NULL,
	"links" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spans_app_id_trace_id_span_id_start_time_pk" PRIMARY KEY("app_id","trace_id","span_id","start_time")
) PARTITION BY RANGE ("start_time");
--> statement-breakpoint
CREATE INDEX "spans_app_time" ON "spans" USING btree ("app_id","start_time");--> statement-breakpoint
CREATE INDEX "spans_app_interface_time" ON "spans" USING btree ("app_id","interface","start_time");--> statement-breakpoint
CREATE INDEX "spans_app_case" ON "spans" USING btree ("app_id","test_case");