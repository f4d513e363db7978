"""What both raw-SQLite reference scripts open: a fresh database file (any old one and its WAL
removed) with the same settings, so their figures compare the schemas, not the pragmas."""
import os, sqlite3

SETTINGS = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-131072; PRAGMA temp_store=MEMORY;"

def fresh_database(db_path, schema):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.remove(db_path + suffix)
    db = sqlite3.connect(db_path, isolation_level=None)
    db.executescript(SETTINGS + "\n" + schema)
    return db

def checkpointed_size(db, db_path):
    """The file's bytes after folding the WAL into it, as both benchmarks report size on disk."""
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(os.path.getsize(db_path + s) for s in ("", "-wal") if os.path.exists(db_path + s))
