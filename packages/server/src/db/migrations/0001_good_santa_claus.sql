CREATE TABLE "agent_heartbeats" (
	"report_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"status" text NOT NULL,
	"ip" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_heartbeats_report_id_agent_id_pk" PRIMARY KEY("report_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"message_type" text NOT NULL,
	"report_id" text,
	"agent_id" text,
	"status" text,
	"ip" text,
	"recipient_id" uuid,
	"notifies" boolean DEFAULT false NOT NULL,
	CONSTRAINT "messages_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "notification_cursors" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"read_through" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_states" (
	"user_id" uuid NOT NULL,
	"message_seq" bigint NOT NULL,
	"readed" boolean DEFAULT false NOT NULL,
	"hidded" boolean DEFAULT false NOT NULL,
	CONSTRAINT "notification_states_user_id_message_seq_pk" PRIMARY KEY("user_id","message_seq")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_cursors" ADD CONSTRAINT "notification_cursors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_states" ADD CONSTRAINT "notification_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_states" ADD CONSTRAINT "notification_states_message_seq_messages_seq_fk" FOREIGN KEY ("message_seq") REFERENCES "public"."messages"("seq") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_report_idx" ON "messages" USING btree ("report_id","seq");--> statement-breakpoint
CREATE INDEX "messages_notifies_idx" ON "messages" USING btree ("seq") WHERE "messages"."notifies";