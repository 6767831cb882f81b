#!/usr/bin/env python3
"""Synthetic database for the QA-generation benchmark.

    make_db.py N OUT.sqlite

item(N rows): a unique, descriptive name and attribute columns;
store(100 rows); stock(N rows): each item stocked in one store, joining
the two (the associative-table shape of Spider's employment).
Deterministic: the same N gives the same database.
"""
import random
import sqlite3
import sys

ADJECTIVES = ["Brisk", "Calm", "Dusty", "Eager", "Fuzzy", "Gentle", "Hollow", "Icy", "Jolly", "Keen",
              "Lucky", "Mellow", "Noble", "Odd", "Proud", "Quiet", "Rusty", "Shiny", "Tidy", "Vivid"]
NOUNS = ["Anvil", "Bucket", "Candle", "Drill", "Easel", "Funnel", "Gasket", "Hinge", "Kettle", "Ladle",
         "Mallet", "Nozzle", "Pulley", "Rivet", "Sprocket", "Trowel", "Valve", "Whisk", "Wrench", "Yoke"]
COLORS = ["red", "green", "blue", "black", "white", "yellow", "orange", "purple", "grey", "brown"]
CATEGORIES = ["tools", "kitchen", "garden", "plumbing", "office", "outdoor", "hardware", "paint"]
CITIES = ["Lyon", "Porto", "Graz", "Turku", "Ghent", "Bergen", "Split", "Brno", "Cork", "Malmö"]
N_STORES = 100


def main():
    n, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(n)
    db = sqlite3.connect(path)
    db.executescript("""
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        DROP TABLE IF EXISTS stock; DROP TABLE IF EXISTS item; DROP TABLE IF EXISTS store;
        CREATE TABLE item (
          item_id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          color TEXT,
          size INTEGER,
          price REAL,
          category TEXT
        );
        CREATE TABLE store (
          store_id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          city TEXT
        );
        CREATE TABLE stock (
          item_id INTEGER NOT NULL REFERENCES item,
          store_id INTEGER NOT NULL REFERENCES store,
          quantity INTEGER,
          PRIMARY KEY (item_id, store_id)
        );
    """)
    db.executemany("INSERT INTO store VALUES (?, ?, ?)",
                   ((s, f"{CITIES[s % len(CITIES)]} store #{s:03d}", CITIES[s % len(CITIES)])
                    for s in range(1, N_STORES + 1)))

    def items():
        for i in range(1, n + 1):
            name = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {i:07d}"
            yield (i, name, rng.choice(COLORS), rng.randint(1, 500), round(rng.uniform(0.5, 999.0), 2),
                   rng.choice(CATEGORIES))

    db.executemany("INSERT INTO item VALUES (?, ?, ?, ?, ?, ?)", items())
    db.executemany("INSERT INTO stock VALUES (?, ?, ?)",
                   ((i, rng.randint(1, N_STORES), rng.randint(0, 1000)) for i in range(1, n + 1)))
    db.commit()
    db.execute("ANALYZE")
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
