-- Names that need quotes, written once in the SQL that SQLite,
-- MariaDB/MySQL (with ANSI_QUOTES, as tests/servers/with-server.py loads
-- fixtures) and PostgreSQL all read, for tests/servers/conformance.py:
-- every backend must give the same schema, the same templates (same ids)
-- and the same dataset, up to the quotes each dialect needs.
--
-- What it holds on purpose: quoted mixed-case tables and columns, as
-- pandas' to_sql and ORMs make them ("People", "People_ID"), which
-- PostgreSQL would fold to lower case bare; the reserved words order,
-- user and group as table and column names; names with a space ("Home
-- Town", "group member"); names outside ASCII ("Straße", "Größe");
-- a composite primary key and a composite foreign key to it; foreign
-- keys declared in another order than their columns, which the catalogs
-- list each in its own order.
--
-- What it leaves out on purpose (doc/databases.md): names that differ
-- only in case, which SQLite cannot hold and MariaDB compares equal for
-- columns; values that differ only in case or trailing spaces; integral
-- decimals in a column a template projects (35.00), which SQLite's
-- NUMERIC affinity keeps as the integer 35 and the servers give as 35.0.

BEGIN;

CREATE TABLE "Straße" (
  "Straße"   VARCHAR(40) NOT NULL PRIMARY KEY,
  "Stadt"    VARCHAR(40) NOT NULL
);

CREATE TABLE "People" (
  "People_ID"  INTEGER PRIMARY KEY,
  "Name"       VARCHAR(60) NOT NULL UNIQUE,
  "Home Town"  VARCHAR(60),
  "Größe"      INTEGER,
  "Straße"     VARCHAR(40) REFERENCES "Straße" ("Straße")
);

CREATE TABLE "user" (
  "user"       VARCHAR(20) NOT NULL PRIMARY KEY,
  "Email"      VARCHAR(80) NOT NULL UNIQUE,
  "People_ID"  INTEGER REFERENCES "People" ("People_ID")
);

CREATE TABLE "group" (
  "group"        VARCHAR(20) NOT NULL PRIMARY KEY,
  "order"        INTEGER NOT NULL,
  "Description"  VARCHAR(80)
);

CREATE TABLE "group member" (
  "user"       VARCHAR(20) NOT NULL,
  "group"      VARCHAR(20) NOT NULL,
  "Joined On"  DATE,
  PRIMARY KEY ("group", "user"),
  FOREIGN KEY ("user") REFERENCES "user" ("user"),
  FOREIGN KEY ("group") REFERENCES "group" ("group")
);

CREATE TABLE "order" (
  "order"      INTEGER PRIMARY KEY,
  "Item"       VARCHAR(60) NOT NULL,
  "group"      VARCHAR(20) NOT NULL,
  "user"       VARCHAR(20) NOT NULL,
  "Total"      DECIMAL(10,2),
  FOREIGN KEY ("group", "user") REFERENCES "group member" ("group", "user")
);

INSERT INTO "Straße" ("Straße", "Stadt") VALUES
  ('Hauptstraße 1',     'Köln'),
  ('Lindenallee 7',     'Graz'),
  ('Rue de l''Église',  'Lyon');

INSERT INTO "People" ("People_ID", "Name", "Home Town", "Größe", "Straße") VALUES
  (1, 'Ada Byron',       'London',    165, 'Hauptstraße 1'),
  (2, 'Grace Hopper',    'New York',  160, 'Lindenallee 7'),
  (3, 'Alan Turing',     'London',    178, 'Rue de l''Église'),
  (4, 'Edsger Dijkstra', 'Rotterdam', NULL, NULL),
  (5, 'Émilie du Châtelet', 'Paris',  158, 'Rue de l''Église');

INSERT INTO "user" ("user", "Email", "People_ID") VALUES
  ('ada',     'ada@example.org',     1),
  ('grace',   'grace@example.org',   2),
  ('alan',    'alan@example.org',    3),
  ('edsger',  'edsger@example.org',  4),
  ('emilie',  'emilie@example.org',  5);

INSERT INTO "group" ("group", "order", "Description") VALUES
  ('compilers',  2, 'Languages and their translators'),
  ('logic',      1, 'Proofs, machines and computability'),
  ('physics',    3, NULL);

INSERT INTO "group member" ("user", "group", "Joined On") VALUES
  ('ada',    'logic',     '1842-10-01'),
  ('grace',  'compilers', '1952-05-01'),
  ('alan',   'logic',     '1936-05-28'),
  ('alan',   'compilers', '1948-06-21'),
  ('edsger', 'compilers', '1959-01-01'),
  ('emilie', 'physics',   '1745-01-01');

INSERT INTO "order" ("order", "Item", "group", "user", "Total") VALUES
  (101, 'Difference engine plans', 'logic',     'ada',    120.55),
  (102, 'A-0 manual',              'compilers', 'grace',  35.25),
  (103, 'Tape, 100 m',             'logic',     'alan',   8.75),
  (104, 'ALGOL 60 report',         'compilers', 'edsger', 12.45),
  (105, 'Principia, 2nd edition',  'physics',   'emilie', NULL),
  (106, 'Pilot ACE valves',        'compilers', 'alan',   990.15);

COMMIT;
