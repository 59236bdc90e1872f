CREATE TABLE "ops_counters" (
	"name" text NOT NULL,
	"labels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ops_counters_pkey" PRIMARY KEY("name","labels")
);
