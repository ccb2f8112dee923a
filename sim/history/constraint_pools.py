"""The slot pools each constraint class draws from: verbs, objects, steps' later actions,
settings and values, conditions. Data only (sim.history.constraints turns a row into a fact), kept
apart so the templates stay readable; filler vocabulary (sim.history.filler) never uses these
objects.
"""

from __future__ import annotations

# (base verb, gerund, noun form, object, plural object form)
PROHIBITION = (
    ("rotate", "rotating", "rotation", "credential", "credentials"),
    ("delete", "deleting", "deletion", "staging snapshots", "staging snapshot"),
    ("restart", "restarting", "restart", "payment worker", "payment workers"),
    ("revoke", "revoking", "revocation", "signing key", "signing keys"),
    ("truncate", "truncating", "truncation", "audit log table", "audit log tables"),
    ("reindex", "reindexing", "reindex", "search index", "search indexes"),
    ("purge", "purging", "purge", "session cache", "session caches"),
    ("redeploy", "redeploying", "redeploy", "billing service", "billing services"),
    ("scale down", "scaling down", "scale-down", "analytics cluster", "analytics clusters"),
    ("renew", "renewing", "renewal", "TLS certificate", "TLS certificates"),
    ("drop", "dropping", "drop", "legacy orders table", "legacy orders tables"),
    ("flush", "flushing", "flush", "message queue", "message queues"),
)
# (verb, gerund, object, the later step as a gerund phrase, the later step as a noun phrase)
ORDERING = (
    ("run", "running", "database migration", "deploying the API", "the API deploy"),
    ("build", "building", "release notes", "tagging the release", "the release tag"),
    ("back up", "backing up", "user table", "changing the schema", "the schema change"),
    ("drain", "draining", "web node", "upgrading the kernel", "the kernel upgrade"),
    ("notify", "notifying", "on-call channel", "starting the failover", "the failover"),
    ("warm", "warming", "CDN cache", "switching DNS", "the DNS switch"),
    ("export", "exporting", "tenant list", "rotating the shards", "the shard rotation"),
    ("snapshot", "snapshotting", "ledger volume", "resizing the disk", "the disk resize"),
)
# (setting, object, value)
VALUE_PIN = (
    ("region", "new buckets", "eu-west-1"),
    ("instance type", "build runners", "c6i.large"),
    ("timezone", "report timestamps", "UTC"),
    ("log level", "ingest service", "WARN"),
    ("retention period", "audit exports", "90 days"),
    ("port", "metrics endpoint", "9464"),
    ("currency", "invoice totals", "EUR"),
    ("replica count", "cache tier", "3 replicas"),
)
# (condition as written, accepted condition forms, verb, gerund, noun, object)
CONDITIONAL = (
    (
        "the integration tests fail",
        (
            "integration tests fail",
            "integration tests failing",
            "failing integration tests",
            "integration tests are failing",
            "integration test failure",
            "integration tests are red",
        ),
        "merge",
        "merging",
        "merge",
        "release branch",
    ),
    (
        "the canary error rate is above 2%",
        (
            "canary error rate is above 2",
            "canary error rate above 2",
            "canary errors above 2",
            "canary error rate exceeds 2",
        ),
        "promote",
        "promoting",
        "promotion",
        "canary build",
    ),
    (
        "disk usage is above 90%",
        ("disk usage is above 90", "disk usage above 90", "disk usage exceeds 90"),
        "start",
        "starting",
        "start",
        "nightly compaction job",
    ),
    (
        "the security scan reports a critical finding",
        (
            "security scan reports critical finding",
            "critical finding in security scan",
            "critical security finding",
            "security scan finds critical",
        ),
        "publish",
        "publishing",
        "publication",
        "container image",
    ),
    (
        "the load test misses its latency target",
        (
            "load test misses its latency target",
            "load test misses latency target",
            "missed latency target",
            "latency target is missed",
        ),
        "enable",
        "enabling",
        "rollout",
        "new pricing page",
    ),
)
# (verb, gerund, noun, object)
CONFIRMATION = (
    ("delete", "deleting", "deletion", "old backups"),
    ("send", "sending", "payout", "customer refund batch"),
    ("force-push", "force-pushing", "force-push", "main branch"),
    ("wipe", "wiping", "wipe", "test tenant data"),
    ("close", "closing", "closure", "stale support tickets"),
    ("archive", "archiving", "archival", "Q3 project folders"),
    ("downgrade", "downgrading", "downgrade", "free-tier accounts"),
)
CONFIRM_FORMS = (
    "users yes",
    "user says yes",
    "user confirms",
    "users confirmation",
    "user confirmation",
    "users approval",
    "user approves",
    "explicit confirmation",
    "explicit yes",
    "user has said yes",
)
# objects that never appear as facts: near misses share a verb or condition with a fact
OTHER_OBJECTS = (
    "API token",
    "read replica",
    "feature flags",
    "staging bucket",
    "worker pool",
    "build cache",
    "webhook secret",
    "preview environment",
)
