#!/usr/bin/env python3
"""Raw-SQLite reference for the index benchmark: the same generated rows and the same queries,
with a hand-written schema (a notes table, an FTS5 table, two indexes) and no Lantern code.

It does the work the benchmark's queries need, as a raw-SQLite user would: the notes row with a
unique id, FTS5 over title, body and keywords (FTS5 keeps the text, so it can be read back), an
index on rating (count, group by rating), and the month of `created` stored at write time with an
index on (month, created), so group by month walks an index instead of formatting every row.

usage: index_reference.py ROWS.tsv QUERIES.json DB-PATH [--build-only]  -> prints a JSON object of timings
(with --build-only, of the build alone).
"""
import json, os, sqlite3, sys, time
from reference_database import checkpointed_size, fresh_database
from datetime import datetime, timezone

rows_path, queries_path, db_path = sys.argv[1:4]
build_only = "--build-only" in sys.argv[4:]
queries = json.load(open(queries_path))

db = fresh_database(db_path, """
CREATE TABLE notes(id INTEGER PRIMARY KEY, uid TEXT UNIQUE, title TEXT, keywords TEXT, created REAL,
                   created_month INTEGER, modified REAL, due REAL, rating REAL, size REAL, effort REAL);
CREATE INDEX notes_rating ON notes(rating);
CREATE INDEX notes_created ON notes(created_month, created);
CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, keywords, tokenize='porter unicode61 remove_diacritics 2');
""")

def rows():
    with open(rows_path, encoding="utf-8") as handle:
        for line in handle:
            uid, title, body, keywords, created, modified, due, rating, size, effort = line.rstrip("\n").split("\t")
            yield uid, title, body, keywords, float(created), float(modified), float(due), float(rating), float(size), float(effort)

start = time.perf_counter()
cpu_start = time.process_time()
count = 0
db.execute("BEGIN")
for uid, title, body, keywords, created, modified, due, rating, size, effort in rows():
    month = datetime.fromtimestamp(created, timezone.utc)
    cursor = db.execute("INSERT INTO notes(uid, title, keywords, created, created_month, modified, due, rating, size, effort) "
                        "VALUES(?,?,?,?,?,?,?,?,?,?)",
                        (uid, title, keywords, created, month.year * 100 + month.month, modified, due, rating, size, effort))
    db.execute("INSERT INTO notes_fts(rowid, title, body, keywords) VALUES(?,?,?,?)", (cursor.lastrowid, title, body, keywords))
    count += 1
db.execute("COMMIT")
elapsed = time.perf_counter() - start
cpu_elapsed = time.process_time() - cpu_start
size = checkpointed_size(db, db_path)
if build_only:
    print(json.dumps({"itemsPerSecond": count / elapsed, "itemsPerCPUSecond": count / cpu_elapsed}))
    sys.exit(0)

def timed(sql, params_list, repeat=1):
    samples = []
    for _ in range(repeat):
        for params in params_list:
            t = time.perf_counter()
            db.execute(sql, params).fetchall()
            samples.append((time.perf_counter() - t) * 1000)
    return samples

def timed_bounded(words):
    """The bounded ranking: BM25 over the newest `boundedMatches` matches, then titles of the top 10 (as ours does)."""
    samples = []
    for word in words:
        t = time.perf_counter()
        ids = [row[0] for row in db.execute(
            "SELECT rowid FROM (SELECT rowid, rank AS score FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rowid DESC LIMIT ?) "
            "ORDER BY score LIMIT 10", (fts([word]), queries["boundedMatches"]))]
        db.execute("SELECT rowid, title FROM notes_fts WHERE rowid IN (%s)" % ",".join("?" * len(ids)), ids).fetchall()
        samples.append((time.perf_counter() - t) * 1000)
    return samples

def fts(words):
    return " AND ".join('"%s"' % w for w in words)

result = {
    "sqlite": sqlite3.sqlite_version,
    "itemsPerSecond": count / elapsed,
    "itemsPerCPUSecond": count / cpu_elapsed,
    "bytes": size,
    "ftsTwoWord": timed("SELECT rowid, title FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rank LIMIT 10",
                        [(fts(q),) for q in queries["twoWord"]]),
    "ftsCommon": timed("SELECT rowid, title FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rank LIMIT 10",
                       [(fts([w]),) for w in queries["common"]]),
    "ftsStop": timed("SELECT rowid, title FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rank LIMIT 10",
                     [(fts([w]),) for w in queries["stop"]]),
    "ftsCommonBounded": timed_bounded(queries["common"]),
    "ftsStopBounded": timed_bounded(queries["stop"]),
    "filtered": timed("SELECT n.id, n.title FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid "
                      "WHERE notes_fts MATCH ? AND n.rating >= 4 AND n.created >= ? ORDER BY rank LIMIT 10",
                      [(fts([q["word"]]), q["since"]) for q in queries["filtered"]]),
    "count": timed("SELECT count(*) FROM notes WHERE rating >= 4", [()], repeat=queries["aggregateRepeat"]),
    "groupBy": timed("SELECT rating, count(*) FROM notes GROUP BY rating", [()], repeat=queries["aggregateRepeat"]),
    "groupByMonth": timed("SELECT created_month, count(*) FROM notes GROUP BY created_month",
                          [()], repeat=queries["aggregateRepeat"]),
}
print(json.dumps(result))
