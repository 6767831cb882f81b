-- A small library, written once in the SQL that SQLite, MariaDB/MySQL and
-- PostgreSQL all read, for tests/servers/conformance.py: the same data in
-- every backend must give the same schema, templates and dataset.
--
-- What it holds on purpose: a composite primary key and a composite
-- foreign key to it, a composite UNIQUE, unicode (accents, CJK, an emoji),
-- quotes, apostrophes and a backslash in values, NULLs, dates, exact
-- decimals (integral and not) and floating-point numbers.
--
-- What it leaves out on purpose, because the servers' semantics differ
-- (doc/databases.md, pinned by the plugin tests): values that differ only
-- in case or in trailing spaces, which MariaDB/MySQL's default collations
-- compare equal; and a primary key column of another type than INTEGER
-- without NOT NULL, which SQLite lets hold NULL (so its schema says
-- nullable) and the servers do not.

BEGIN;

CREATE TABLE author (
  author_id INTEGER PRIMARY KEY,
  name      VARCHAR(100) NOT NULL UNIQUE,
  country   VARCHAR(60),
  born      DATE
);

CREATE TABLE edition (
  isbn      VARCHAR(20) NOT NULL,
  printing  INTEGER NOT NULL,
  title     VARCHAR(200) NOT NULL,
  author_id INTEGER REFERENCES author (author_id),
  price     DECIMAL(10,2),
  weight_kg DOUBLE PRECISION,
  published DATE,
  PRIMARY KEY (isbn, printing)
);

CREATE TABLE shelf (
  shelf_code VARCHAR(10) NOT NULL PRIMARY KEY,
  room       VARCHAR(40) NOT NULL,
  slot       INTEGER NOT NULL,
  UNIQUE (room, slot)
);

CREATE TABLE copy_on_shelf (
  isbn       VARCHAR(20) NOT NULL,
  printing   INTEGER NOT NULL,
  shelf_code VARCHAR(10) NOT NULL REFERENCES shelf (shelf_code),
  copies     INTEGER,
  PRIMARY KEY (isbn, printing, shelf_code),
  FOREIGN KEY (isbn, printing) REFERENCES edition (isbn, printing)
);

INSERT INTO author (author_id, name, country, born) VALUES
  (1, 'Flann O''Brien',        'Ireland', '1911-10-05'),
  (2, 'Zoë Ødegaard',          'Norway',  '1964-02-29'),
  (3, '村上 春樹',              'Japan',   '1949-01-12'),
  (4, 'Anne "Nan" Shaw',       'Canada',  NULL),
  (5, 'Émile Zola',            'France',  '1840-04-02'),
  (6, 'Astrid 🚀 Lindqvist',   NULL,      '1907-11-14');

INSERT INTO edition (isbn, printing, title, author_id, price, weight_kg, published) VALUES
  ('978-0-00-000001-1', 1, 'At Swim-Two-Birds',           1, 12.50,    0.41,  '1939-03-13'),
  ('978-0-00-000001-1', 2, 'At Swim-Two-Birds',           1, 14.00,    0.4,   '1960-07-01'),
  ('978-0-00-000002-8', 1, 'The Third Policeman',         1, 9.99,     0.35,  '1967-01-01'),
  ('978-0-00-000003-5', 1, 'Fjord Lines',                 2, 1234.50,  1.25,  '1999-12-31'),
  ('978-0-00-000004-2', 1, 'ノルウェイの森',                3, 2200.00,  0.6,   '1987-09-04'),
  ('978-0-00-000005-9', 1, 'Paths of C:\Windows',         4, NULL,     NULL,  '2001-05-17'),
  ('978-0-00-000006-6', 1, 'L''Assommoir',                5, 7.25,     0.875, '1877-01-01'),
  ('978-0-00-000006-6', 3, 'L''Assommoir',                5, 8.75,     0.9,   NULL),
  ('978-0-00-000007-3', 1, 'Pippi "Longstocking" Abroad', 6, 99999999.99, 2.5e-3, '1945-11-26'),
  ('978-0-00-000008-0', 1, 'Untitled',                    NULL, 0.10,  100,   '2020-02-02');

INSERT INTO shelf (shelf_code, room, slot) VALUES
  ('A-1', 'Reading Room', 1),
  ('A-2', 'Reading Room', 2),
  ('B-1', 'Archive',      1),
  ('C-1', 'Salle Émile',  1);

INSERT INTO copy_on_shelf (isbn, printing, shelf_code, copies) VALUES
  ('978-0-00-000001-1', 1, 'A-1', 2),
  ('978-0-00-000001-1', 2, 'A-1', 1),
  ('978-0-00-000002-8', 1, 'A-2', 3),
  ('978-0-00-000003-5', 1, 'B-1', NULL),
  ('978-0-00-000004-2', 1, 'A-2', 1),
  ('978-0-00-000006-6', 1, 'C-1', 4),
  ('978-0-00-000006-6', 3, 'C-1', 1),
  ('978-0-00-000007-3', 1, 'B-1', 2);

COMMIT;
