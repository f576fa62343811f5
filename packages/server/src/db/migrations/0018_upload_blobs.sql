CREATE TABLE "upload_blobs" (
	"upload_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "upload_blobs_upload_id_seq_pk" PRIMARY KEY("upload_id","seq")
);
--> statement-breakpoint
ALTER TABLE "coverage_uploads" ALTER COLUMN "stored_path" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "coverage_uploads" ADD COLUMN "storage" text DEFAULT 'file' NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_blobs" ADD CONSTRAINT "upload_blobs_upload_id_coverage_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."coverage_uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The chunks are gzipped already: TOAST keeps them out of line without compressing them again.
ALTER TABLE "upload_blobs" ALTER COLUMN "data" SET STORAGE EXTERNAL;
