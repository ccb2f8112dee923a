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

# Words real summarizers use for a class's verbs and objects: the planted facts accept them,
# so a faithful paraphrase ("cycle the creds", "bounce the payments worker") is not graded
# lost. Synonyms only: nothing here narrows or widens what a rule is about.
ACTION_SYNONYMS = {
    "rotate": ("cycle", "roll", "regenerate", "refresh", "replace"),
    "delete": ("remove", "erase", "purge", "prune", "wipe", "clean up", "get rid of", "drop"),
    "restart": ("reboot", "bounce", "recycle", "cycle", "kill and start"),
    "revoke": ("invalidate", "disable", "withdraw"),
    "truncate": ("empty", "clear", "wipe"),
    "reindex": ("rebuild", "re-index"),
    "purge": ("clear", "flush", "invalidate", "wipe", "nuke", "empty"),
    "redeploy": ("deploy", "roll out", "ship", "push"),
    "scale down": ("downscale", "shrink", "scale in", "reduce"),
    "renew": ("reissue", "refresh", "replace", "rotate"),
    "drop": ("delete", "remove", "destroy"),
    "flush": ("purge", "clear", "drain", "empty"),
    "run": ("apply", "execute", "perform", "do", "migrate"),
    "build": ("write", "generate", "prepare", "draft"),
    "back up": ("backup", "dump", "snapshot", "copy", "take a backup of"),
    "drain": ("cordon", "empty", "evacuate"),
    "notify": ("alert", "inform", "ping", "message", "tell", "page"),
    "warm": ("prime", "preload", "prefill", "pre-warm"),
    "export": ("dump", "extract", "download", "save"),
    "snapshot": ("back up", "backup", "copy", "image"),
    "merge": ("land", "integrate", "combine", "push"),
    "promote": ("roll out", "release", "ship", "advance", "push"),
    "start": ("run", "launch", "trigger", "kick off", "begin", "schedule", "execute"),
    "publish": ("push", "release", "ship", "upload"),
    "enable": ("turn on", "activate", "switch on", "launch", "roll out", "release"),
    "send": ("issue", "dispatch", "process", "pay out", "release", "submit", "go out", "ship"),
    "force-push": ("force push", "push --force", "push -f", "rewrite"),
    "wipe": ("delete", "erase", "purge", "clear", "remove"),
    "close": ("resolve", "shut", "archive"),
    "archive": ("move", "store away", "shelve"),
    "downgrade": ("demote", "move down"),
    "use": ("set", "keep", "pin", "stay on", "default to", "configure", "run on", "listen on",
            "serve on", "bind", "create in", "store in", "deploy to", "live in", "stamp",
            "render", "emit", "put", "place", "create", "host", "locate"),
}  # fmt: skip
OBJECT_FORMS = {
    "credential": ("credentials", "api credential", "service credential", "creds"),
    "new buckets": ("new bucket", "newly created bucket", "fresh bucket", "new s3 bucket",
                    "any new bucket", "bucket created from now on"),
    "metrics endpoint": ("metrics port", "metrics server", "metrics listener", "/metrics"),
    "report timestamps": ("report timestamp", "report time", "timestamps in reports",
                          "times in reports", "report dates"),
    "main branch": ("master branch", "origin main", "main line"),
    "old backups": ("old backup", "stale backups", "previous backups", "legacy backups"),
    "customer refund batch": ("refund batch", "customer refunds", "refunds batch"),
    "release branch": ("release/", "release candidate branch"),
    "nightly compaction job": ("nightly compaction", "compaction job", "nightly compact job"),
    "canary build": ("canary release", "canary version", "canary deployment"),
    "database migration": ("db migration", "schema migration", "migration", "migrations"),
    "user table": ("users table", "user db table"),
    "ledger volume": ("ledger disk", "ledger vol", "ledger ebs volume"),
    "legacy orders table": ("legacy orders", "old orders table", "legacy order table"),
    "payment worker": ("payments worker", "payment service worker", "payment workers"),
    "on-call channel": ("oncall channel", "oncall", "on-call room", "pager channel"),
    "session cache": ("sess cache", "session store cache"),
}  # fmt: skip
CONFIRM_MORE = (
    "user approval", "user's approval", "user ok", "user okay", "user's go-ahead",
    "user sign-off", "explicit sign-off", "user consent", "user's permission",
    "user has confirmed", "user has approved", "ask the user", "asking the user",
    "confirmation from the user", "approval from the user", "user confirmation", "approval",
    "confirmation", "sign-off", "consent", "go-ahead",
)  # fmt: skip
