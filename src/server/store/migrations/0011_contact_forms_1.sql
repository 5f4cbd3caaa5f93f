CREATE TYPE "public"."smtp_security" AS ENUM('starttls', 'tls', 'none');--> statement-breakpoint
CREATE TYPE "public"."submission_mail_status" AS ENUM('pending', 'sent');--> statement-breakpoint
CREATE TABLE "contact_forms" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"recipient_email" text DEFAULT '' NOT NULL,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "contact_forms_website_key" UNIQUE("website_id","id")
);
--> statement-breakpoint
CREATE TABLE "contact_submissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"form_id" uuid NOT NULL,
	"values" jsonb NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"handled" boolean DEFAULT false NOT NULL,
	"mail_status" "submission_mail_status" DEFAULT 'pending' NOT NULL,
	"mail_attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mail_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	CONSTRAINT "mail_templates_website_key" UNIQUE("website_id")
);
--> statement-breakpoint
CREATE TABLE "smtp_settings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"website_id" uuid NOT NULL,
	"host" text NOT NULL,
	"port" integer DEFAULT 587 NOT NULL,
	"security" "smtp_security" DEFAULT 'starttls' NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"password_encrypted" text,
	"from_email" text NOT NULL,
	"from_name" text DEFAULT '' NOT NULL,
	CONSTRAINT "smtp_settings_website_key" UNIQUE("website_id")
);
--> statement-breakpoint
ALTER TABLE "contact_forms" ADD CONSTRAINT "contact_forms_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD CONSTRAINT "contact_submissions_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_submissions" ADD CONSTRAINT "contact_submissions_form_fk" FOREIGN KEY ("website_id","form_id") REFERENCES "public"."contact_forms"("website_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_templates" ADD CONSTRAINT "mail_templates_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smtp_settings" ADD CONSTRAINT "smtp_settings_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_forms_name_idx" ON "contact_forms" USING btree ("website_id","name" collate "und-x-icu",id);--> statement-breakpoint
CREATE INDEX "contact_submissions_form_idx" ON "contact_submissions" USING btree ("form_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contact_submissions_due_idx" ON "contact_submissions" USING btree ("next_attempt_at") WHERE "contact_submissions"."mail_status" = 'pending';