#!/usr/bin/env python3
"""Raw-SQLite reference for the passages benchmark: the same passages Lantern's index makes of
the same long documents, indexed and searched as a raw-SQLite RAG store would do it, with no
Lantern code: a documents table (unique id, title), a passages table (document, page, lines)
and an FTS5 table keeping each passage's text (porter stemming over unicode61, diacritics
removed, as Lantern's tokenizer).

usage: passage_reference.py PASSAGES.tsv QUERIES.json DB-PATH  -> prints a JSON object of timings
PASSAGES.tsv: document id, title, first line, last line, passage text (tabs and newlines escaped as \\t, \\n).
"""
import json, os, sqlite3, sys, time
from reference_database import checkpointed_size, fresh_database

passages_path, queries_path, db_path = sys.argv[1:4]
queries = json.load(open(queries_path))

db = fresh_database(db_path, """
CREATE TABLE documents(id INTEGER PRIMARY KEY, uid TEXT UNIQUE, title TEXT);
CREATE TABLE passages(id INTEGER PRIMARY KEY, document INTEGER NOT NULL, first_line INTEGER, last_line INTEGER);
CREATE VIRTUAL TABLE passages_fts USING fts5(body, tokenize='porter unicode61 remove_diacritics 2');
""")

def unescape(text):
    return text.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")

start = time.perf_counter()
cpu_start = time.process_time()
documents = 0
passages = 0
current = None
db.execute("BEGIN")
with open(passages_path, encoding="utf-8") as handle:
    for line in handle:
        uid, title, first, last, body = line.rstrip("\n").split("\t")
        if uid != current:
            document = db.execute("INSERT INTO documents(uid, title) VALUES(?, ?)", (uid, title)).lastrowid
            current = uid
            documents += 1
        rowid = db.execute("INSERT INTO passages(document, first_line, last_line) VALUES(?, ?, ?)",
                           (document, int(first), int(last))).lastrowid
        db.execute("INSERT INTO passages_fts(rowid, body) VALUES(?, ?)", (rowid, unescape(body)))
        passages += 1
db.execute("COMMIT")
elapsed = time.perf_counter() - start
cpu_elapsed = time.process_time() - cpu_start
size = checkpointed_size(db, db_path)

def timed(sql, params_list):
    samples = []
    for params in params_list:
        t = time.perf_counter()
        db.execute(sql, params).fetchall()
        samples.append((time.perf_counter() - t) * 1000)
    return samples

top10 = timed("SELECT p.id, p.document, f.rank FROM passages_fts f JOIN passages p ON p.id = f.rowid "
              "WHERE passages_fts MATCH ? ORDER BY rank LIMIT 10",
              [('"%s" "%s"' % tuple(words),) for words in queries["twoWord"]])
print(json.dumps({"documentsPerSecond": documents / elapsed, "documentsPerCPUSecond": documents / cpu_elapsed,
                  "passages": passages, "bytes": size, "passageTopTen": top10, "sqlite": sqlite3.sqlite_version}))
