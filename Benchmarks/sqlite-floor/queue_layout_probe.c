// SQLite's own cost of the delivery queue, without Swift: what accept, claim and record cost per
// 8-push event in C with prepared statements, for today's layout ("rows": one `deliveries` row per
// push) and for a candidate ("events": one row per event holding its pushes, a push with another
// outcome than a plain 200 given a row of its own). Both start from the relay's own schema, copied
// from SCHEMA_DB (a store `pipeline-bench --schema` made, every migration applied), so the probe
// cannot drift from `PushStoreMigrations`: a column it names that is gone fails the run.
// The figures are a floor for `pipeline-bench`'s store stages, and what a change of layout could
// gain at most. Run by scripts/bench-sqlite-floor.sh; see docs/benchmarks.md, "SQLite's floor".
//
//   queue_layout_probe SCHEMA_DB rows|events N [pending]
//
// N events of 8 pushes, committed 32 to a transaction (as `EventCommitter` groups them), with 2
// skip decisions, the shared payload bytes and one packed-payload row each. "pending" accepts them
// as pending and claims them in batches of 1,000 pushes; otherwise they are accepted in flight (the
// webhook's hand-off to the dispatcher). Then every push is recorded as a plain 200 in flushes of
// 1,000 pushes. journal_mode=WAL, synchronous=FULL, as the relay runs.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { PUSHES = 8, EVENTS_PER_COMMIT = 32, PUSHES_PER_BATCH = 1000 };

static double cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void exec(sqlite3 *db, const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, error);
        exit(1);
    }
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
        exit(1);
    }
    return statement;
}

static void run(sqlite3_stmt *statement) {
    int result;
    while ((result = sqlite3_step(statement)) == SQLITE_ROW) {}
    if (result != SQLITE_DONE) {
        fprintf(stderr, "step: %s\n", sqlite3_errmsg(sqlite3_db_handle(statement)));
        exit(1);
    }
    sqlite3_reset(statement);
}

// The candidate, beside the relay's tables: a row per event, its pushes (user, token, apns-id,
// type, priority, expiry) in one blob, ids first..first+count-1; a push whose outcome is not a
// plain 200 would get a row in push_outcomes (created, not exercised: the benchmark's pushes all
// succeed).
static const char *events_schema =
    "CREATE TABLE push_batches (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, app_id TEXT NOT NULL,"
    " message_id INTEGER NOT NULL, state TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0, next_attempt_at_ms INTEGER NOT NULL,"
    " created_at_ms INTEGER NOT NULL, updated_at_ms INTEGER NOT NULL, sent_at_ms INTEGER, pushes BLOB NOT NULL);"
    "CREATE INDEX batches_on_message ON push_batches (app_id, message_id);"
    "CREATE INDEX batches_in_flight ON push_batches (id) WHERE state = 'in_flight';"
    "CREATE INDEX batches_due_by_app ON push_batches (app_id, next_attempt_at_ms, id) WHERE state = 'pending';"
    "CREATE TABLE push_outcomes (delivery_id INTEGER PRIMARY KEY, state TEXT NOT NULL, attempts INTEGER NOT NULL,"
    " next_attempt_at_ms INTEGER, last_status INTEGER, last_reason TEXT, updated_at_ms INTEGER NOT NULL);";

// Every table, index and trigger of the relay's store at `source`, in the order they were made.
static void copy_schema(sqlite3 *db, const char *source) {
    sqlite3 *from;
    if (sqlite3_open_v2(source, &from, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "cannot open %s: %s\n", source, sqlite3_errmsg(from));
        exit(1);
    }
    sqlite3_stmt *schema = prepare(from,
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid");
    int objects = 0;
    exec(db, "BEGIN");
    while (sqlite3_step(schema) == SQLITE_ROW) {
        exec(db, (const char *)sqlite3_column_text(schema, 0));
        objects++;
    }
    exec(db, "COMMIT");
    sqlite3_finalize(schema);
    sqlite3_close(from);
    if (objects == 0) {
        fprintf(stderr, "%s has no schema (make it with: pipeline-bench --schema %s)\n", source, source);
        exit(1);
    }
}

static const char *app = "bench-app";

int main(int argc, char **argv) {
    if (argc < 4 || (strcmp(argv[2], "rows") != 0 && strcmp(argv[2], "events") != 0) || atoi(argv[3]) <= 0) {
        fprintf(stderr, "usage: %s SCHEMA_DB rows|events N [pending]\n", argv[0]);
        return 2;
    }
    const int per_event = strcmp(argv[2], "events") == 0;
    const int n = atoi(argv[3]);
    const int pending = argc > 4 && strcmp(argv[4], "pending") == 0;
    char path[256];
    snprintf(path, sizeof path, "%s/queue-layout-probe-%d.sqlite", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", getpid());
    unlink(path);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) { fprintf(stderr, "cannot open %s\n", path); return 1; }
    // As the relay opens it (GRDB turns foreign keys on).
    exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
    copy_schema(db, argv[1]);
    if (per_event) exec(db, events_schema);

    sqlite3_stmt *insert_event = prepare(db,
        "INSERT INTO events (app_id, message_id, channel_url, created_at_ms, sender_id) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    sqlite3_stmt *insert_decision = prepare(db,
        "INSERT INTO decisions (app_id, message_id, user_id, decision, created_at_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING");
    sqlite3_stmt *insert_shared = prepare(db,
        "INSERT INTO event_payloads (app_id, message_id, shared) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
    sqlite3_stmt *insert_packed = prepare(db,
        "INSERT INTO packed_payloads (first_delivery_id, last_delivery_id, parts) VALUES (?, ?, ?)");
    sqlite3_stmt *highest = prepare(db, per_event
        ? "SELECT id + count - 1 FROM push_batches ORDER BY id DESC LIMIT 1"
        : "SELECT MAX(id) FROM deliveries");
    sqlite3_stmt *insert_pushes;
    if (per_event) {
        insert_pushes = prepare(db,
            "INSERT INTO push_batches (id, count, app_id, message_id, state, next_attempt_at_ms, created_at_ms, updated_at_ms, pushes)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    } else {
        // One statement for the event's rows, the event's columns bound once (as `SQLiteStore` does).
        char sql[4096] = "INSERT INTO deliveries (id, app_id, message_id, user_id, device_token, push_id, provider, push_type, priority,"
                         " expires_at_ms, state, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms) VALUES ";
        for (int row = 0; row < PUSHES; row++) {
            char values[160];
            int p = 6 + row * 6;
            snprintf(values, sizeof values, "%s(?5 + %d, ?1, ?2, ?%d, ?%d, ?%d, 'apns', ?%d, ?%d, ?%d, ?3, 0, ?4, ?4, ?4)",
                     row ? ", " : "", row, p, p + 1, p + 2, p + 3, p + 4, p + 5);
            strcat(sql, values);
        }
        insert_pushes = prepare(db, sql);
    }

    // Sizes as pipeline-bench's 10-member events store them: 561 shared bytes, 1,112 packed.
    unsigned char shared[561], parts[1112];
    char pushes[PUSHES * 160];
    memset(shared, 's', sizeof shared);
    memset(parts, 'p', sizeof parts);
    char users[PUSHES][16], tokens[PUSHES][65], apns_ids[PUSHES][37];
    const char *state = pending ? "pending" : "in_flight";

    const double accept_start = cpu_us();
    for (int first = 0; first < n; first += EVENTS_PER_COMMIT) {
        exec(db, "BEGIN IMMEDIATE");
        for (int e = first; e < first + EVENTS_PER_COMMIT && e < n; e++) {
            const long long message = 1000000 + e;
            sqlite3_bind_text(insert_event, 1, app, -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert_event, 2, message);
            sqlite3_bind_text(insert_event, 3, "channel-12345", -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert_event, 4, 1);
            sqlite3_bind_text(insert_event, 5, "u123", -1, SQLITE_STATIC);
            run(insert_event);
            for (int d = 0; d < 2; d++) {
                char user[16];
                snprintf(user, sizeof user, "u%d", (e * 7 + d * 13) % 10000);
                sqlite3_bind_text(insert_decision, 1, app, -1, SQLITE_STATIC);
                sqlite3_bind_int64(insert_decision, 2, message);
                sqlite3_bind_text(insert_decision, 3, user, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(insert_decision, 4, d ? "online" : "sender", -1, SQLITE_STATIC);
                sqlite3_bind_int64(insert_decision, 5, 1);
                run(insert_decision);
            }
            sqlite3_bind_text(insert_shared, 1, app, -1, SQLITE_STATIC);
            sqlite3_bind_int64(insert_shared, 2, message);
            sqlite3_bind_blob(insert_shared, 3, shared, sizeof shared, SQLITE_STATIC);
            run(insert_shared);

            long long next = 1;
            if (sqlite3_step(highest) == SQLITE_ROW) next = sqlite3_column_int64(highest, 0) + 1;
            sqlite3_reset(highest);
            for (int d = 0; d < PUSHES; d++) {
                int user = (e * 11 + d * 17) % 10000;
                snprintf(users[d], sizeof users[d], "u%d", user);
                snprintf(tokens[d], sizeof tokens[d], "%064x", user + 1);
                snprintf(apns_ids[d], sizeof apns_ids[d], "%08x-1234-4abc-8def-%012x", e, d);
            }
            if (per_event) {
                int length = 0;
                for (int d = 0; d < PUSHES; d++) {
                    length += snprintf(pushes + length, sizeof pushes - length, "%s\x1f%s\x1f%s\x1f" "alert\x1f" "10\x1f" "1099511627776\x1e",
                                       users[d], tokens[d], apns_ids[d]);
                    if (length >= (int)sizeof pushes) { fprintf(stderr, "pushes blob too long\n"); exit(1); }
                }
                sqlite3_bind_int64(insert_pushes, 1, next);
                sqlite3_bind_int(insert_pushes, 2, PUSHES);
                sqlite3_bind_text(insert_pushes, 3, app, -1, SQLITE_STATIC);
                sqlite3_bind_int64(insert_pushes, 4, message);
                sqlite3_bind_text(insert_pushes, 5, state, -1, SQLITE_STATIC);
                for (int p = 6; p <= 8; p++) sqlite3_bind_int64(insert_pushes, p, 1);
                sqlite3_bind_blob(insert_pushes, 9, pushes, length, SQLITE_STATIC);
            } else {
                sqlite3_bind_text(insert_pushes, 1, app, -1, SQLITE_STATIC);
                sqlite3_bind_int64(insert_pushes, 2, message);
                sqlite3_bind_text(insert_pushes, 3, state, -1, SQLITE_STATIC);
                sqlite3_bind_int64(insert_pushes, 4, 1);
                sqlite3_bind_int64(insert_pushes, 5, next);
                for (int d = 0; d < PUSHES; d++) {
                    int p = 6 + d * 6;
                    sqlite3_bind_text(insert_pushes, p, users[d], -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert_pushes, p + 1, tokens[d], -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert_pushes, p + 2, apns_ids[d], -1, SQLITE_STATIC);
                    sqlite3_bind_text(insert_pushes, p + 3, "alert", -1, SQLITE_STATIC);
                    sqlite3_bind_int(insert_pushes, p + 4, 10);
                    sqlite3_bind_int64(insert_pushes, p + 5, 1LL << 40);
                }
            }
            run(insert_pushes);
            sqlite3_bind_int64(insert_packed, 1, next);
            sqlite3_bind_int64(insert_packed, 2, next + PUSHES - 1);
            sqlite3_bind_blob(insert_packed, 3, parts, sizeof parts, SQLITE_STATIC);
            run(insert_packed);
        }
        exec(db, "COMMIT");
    }

    const double claim_start = cpu_us();
    if (pending) {
        // As `SQLiteStore.claimDue`: the due rows in order, each event's payload rows read once,
        // then one UPDATE marks the claimed ids (json_each).
        sqlite3_stmt *due = prepare(db, per_event
            ? "SELECT id, count, app_id, message_id, state, next_attempt_at_ms, created_at_ms, updated_at_ms, pushes FROM push_batches"
              " WHERE state = 'pending' AND app_id = ? AND next_attempt_at_ms <= ? ORDER BY next_attempt_at_ms, id LIMIT ?"
            : "SELECT d.id, d.app_id, d.message_id, d.user_id, d.device_token, d.push_id, d.push_type, d.priority, d.expires_at_ms,"
              " d.state, d.attempts, d.next_attempt_at_ms, d.last_status, d.last_reason, d.sent_at_ms, d.created_at_ms, d.updated_at_ms,"
              " d.provider"
              " FROM deliveries d WHERE d.state = 'pending' AND d.app_id = ? AND d.next_attempt_at_ms <= ?"
              " ORDER BY d.next_attempt_at_ms, d.id LIMIT ?");
        sqlite3_stmt *packed = prepare(db, "SELECT parts FROM packed_payloads WHERE first_delivery_id = ?");
        sqlite3_stmt *shared_bytes = prepare(db, "SELECT shared FROM event_payloads WHERE app_id = ? AND message_id = ?");
        sqlite3_stmt *mark = prepare(db, per_event
            ? "UPDATE push_batches SET state = 'in_flight', updated_at_ms = ? WHERE id IN (SELECT value FROM json_each(?))"
            : "UPDATE deliveries SET state = 'in_flight', updated_at_ms = ? WHERE id IN (SELECT value FROM json_each(?))");
        static char ids[PUSHES_PER_BATCH * 24];
        long long read_bytes = 0;
        for (;;) {
            exec(db, "BEGIN IMMEDIATE");
            int claimed = 0, length = snprintf(ids, sizeof ids, "[");
            long long last_message = -1;
            sqlite3_bind_text(due, 1, app, -1, SQLITE_STATIC);
            sqlite3_bind_int64(due, 2, 10);
            sqlite3_bind_int(due, 3, per_event ? PUSHES_PER_BATCH / PUSHES : PUSHES_PER_BATCH);
            while (sqlite3_step(due) == SQLITE_ROW) {
                const long long id = sqlite3_column_int64(due, 0);
                const long long message = sqlite3_column_int64(due, per_event ? 3 : 2);
                for (int c = 0; c < sqlite3_column_count(due); c++) {
                    read_bytes += sqlite3_column_bytes(due, c) + (sqlite3_column_blob(due, c) != NULL);
                }
                if (message != last_message) {
                    last_message = message;
                    sqlite3_bind_int64(packed, 1, id);
                    if (sqlite3_step(packed) == SQLITE_ROW) read_bytes += sqlite3_column_bytes(packed, 0);
                    sqlite3_reset(packed);
                    sqlite3_bind_text(shared_bytes, 1, app, -1, SQLITE_STATIC);
                    sqlite3_bind_int64(shared_bytes, 2, message);
                    if (sqlite3_step(shared_bytes) == SQLITE_ROW) read_bytes += sqlite3_column_bytes(shared_bytes, 0);
                    sqlite3_reset(shared_bytes);
                }
                length += snprintf(ids + length, sizeof ids - length, "%s%lld", claimed ? "," : "", id);
                claimed++;
            }
            sqlite3_reset(due);
            snprintf(ids + length, sizeof ids - length, "]");
            if (claimed) {
                sqlite3_bind_int64(mark, 1, 5);
                sqlite3_bind_text(mark, 2, ids, -1, SQLITE_STATIC);
                run(mark);
            }
            exec(db, "COMMIT");
            if (!claimed) break;
        }
        if (read_bytes == 0) { fprintf(stderr, "claimed nothing\n"); return 1; }
    }

    // As `SQLiteStore.recordOutcomes` for plain 200s: one UPDATE per push today; per event in
    // the candidate (the flush groups an event's outcomes, which finish together).
    const double record_start = cpu_us();
    sqlite3_stmt *record = prepare(db, per_event
        ? "UPDATE push_batches SET state = ?, sent = ?, sent_at_ms = ?, updated_at_ms = ? WHERE id = ?"
        : "UPDATE deliveries SET state = ?, attempts = attempts + ?, next_attempt_at_ms = COALESCE(?, next_attempt_at_ms),"
          " last_status = COALESCE(?, last_status), last_reason = COALESCE(?, last_reason), sent_at_ms = COALESCE(?, sent_at_ms),"
          " updated_at_ms = ?, message_name = COALESCE(?, message_name) WHERE id = ?");
    const long long total = (long long)n * PUSHES;
    for (long long id = 1; id <= total;) {
        exec(db, "BEGIN IMMEDIATE");
        for (int k = 0; k < PUSHES_PER_BATCH && id <= total;) {
            if (per_event) {
                sqlite3_bind_text(record, 1, "sent", -1, SQLITE_STATIC);
                sqlite3_bind_int(record, 2, PUSHES);
                sqlite3_bind_int64(record, 3, 2);
                sqlite3_bind_int64(record, 4, 2);
                sqlite3_bind_int64(record, 5, id);
                k += PUSHES, id += PUSHES;
            } else {
                sqlite3_bind_text(record, 1, "sent", -1, SQLITE_STATIC);
                sqlite3_bind_int(record, 2, 1);
                sqlite3_bind_null(record, 3);
                sqlite3_bind_int(record, 4, 200);
                sqlite3_bind_null(record, 5);
                sqlite3_bind_int64(record, 6, 2);
                sqlite3_bind_int64(record, 7, 2);
                sqlite3_bind_null(record, 8);
                sqlite3_bind_int64(record, 9, id);
                k++, id++;
            }
            run(record);
            if (sqlite3_changes(db) != 1) { fprintf(stderr, "record: no row %lld\n", id); return 1; }
        }
        exec(db, "COMMIT");
    }
    const double end = cpu_us();

    printf("%-6s %-9s accept %6.1f  claim %6.1f  record %6.1f  sum %6.1f  µs CPU per event\n", argv[2],
           pending ? "pending" : "in_flight", (claim_start - accept_start) / n, (record_start - claim_start) / n,
           (end - record_start) / n, (end - accept_start) / n);
    sqlite3_close(db);
    char wal[300];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
    unlink(path);
    return 0;
}
