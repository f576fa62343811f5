ALTER TABLE "reports" ADD COLUMN "summaries_version" integer;--> statement-breakpoint
CREATE INDEX "risk_item_history_at_idx" ON "risk_item_history" USING btree ("at");