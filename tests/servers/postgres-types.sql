-- postgres-types.sql: the fixture of tests/test-postgres.c (PostgreSQL only)
--
-- Loaded by tests/servers/with-server.py as the admin; the read-only user
-- grammar_reader gets SELECT on every table through the default
-- privileges the script sets up, except where revoked below.
--
-- SPDX-License-Identifier: LGPL-2.1-or-later

CREATE TABLE company (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE,
  country character(2)
);

-- A composite primary key, a UNIQUE constraint, a separate UNIQUE INDEX,
-- and unique indexes that are not keys (on an expression, partial, and
-- one repeating the primary key).
CREATE TABLE site (
  company_id integer NOT NULL REFERENCES company,
  site_no integer NOT NULL,
  city character varying(40) NOT NULL,
  code text,
  opened date DEFAULT '2000-01-01',
  PRIMARY KEY (company_id, site_no),
  CONSTRAINT site_city_code UNIQUE (city, code)
);
CREATE UNIQUE INDEX site_code ON site (code);
CREATE UNIQUE INDEX site_lower_city ON site (lower(city));
CREATE UNIQUE INDEX site_partial ON site (city) WHERE code IS NOT NULL;
CREATE UNIQUE INDEX site_pk_again ON site (company_id, site_no);

-- A multi-column foreign key whose columns are in another order than
-- the parent's key, declared after a single-column one.
CREATE TABLE visit (
  id bigint PRIMARY KEY,
  visitor text NOT NULL,
  company integer REFERENCES company (id),
  site_number integer,
  site_company integer,
  day date NOT NULL DEFAULT CURRENT_DATE,
  FOREIGN KEY (site_number, site_company) REFERENCES site (site_no, company_id)
);

CREATE VIEW company_sites AS
  SELECT c.name AS company, s.city, s.code
  FROM company c JOIN site s ON s.company_id = c.id;

-- One column per value type of the mapping, a row of values and a row of NULLs.
CREATE TABLE kinds (
  id integer PRIMARY KEY,
  b boolean,
  i2 smallint,
  i4 integer,
  i8 bigint,
  o oid,
  f4 real,
  f8 double precision,
  n_big numeric(20,0),
  n_money numeric(10,2),
  n_whole numeric(10,2),
  n_long numeric(30,20),
  n_any numeric,
  d date,
  t time,
  ts timestamp,
  ts_frac timestamp(3),
  tsz timestamptz,
  by bytea,
  txt text,
  vc varchar(20),
  ch character(5),
  js json,
  u uuid
);
INSERT INTO kinds VALUES (
  1, true, -32768, 2147483647, 9223372036854775807, 4000000000,
  0.1, 0.1,
  98765432109876543210, 1234.50, 12.00, 3.14159265358979323846, -42,
  '2024-02-29', '13:14:15', '2024-01-02 03:04:05', '2024-01-02 03:04:05.25',
  '2024-01-02 03:04:05+02',
  '\x00ff10'::bytea,
  'O''Brien "quoted" back\slash Zoë 東京 😀',
  'varchar',
  'ab',
  '{"a": [1, "x"]}',
  'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'
);
INSERT INTO kinds (id, b) VALUES (2, false);
INSERT INTO kinds (id) VALUES (3);

INSERT INTO company VALUES (1, 'Acme', 'FR'), (2, 'Globex', NULL), (3, 'acme', 'DE'), (4, 'Zoë', 'FR'), (5, 'Émile', NULL);
INSERT INTO site VALUES (1, 1, 'Paris', 'P1', '2001-02-03'), (1, 2, 'Lyon', NULL, DEFAULT), (2, 1, 'Berlin', 'P2', DEFAULT);
INSERT INTO visit VALUES (1, 'O''Brien', 1, 1, 1, '2024-03-01'), (2, 'back\slash', 2, 1, 2, '2024-03-02');

-- A table the reader sees in the catalog but cannot read.
CREATE TABLE secret (id integer PRIMARY KEY, payload text);
INSERT INTO secret VALUES (1, 'hidden');
REVOKE SELECT ON secret FROM grammar_reader;

-- A table of another schema, and a sequence, for the refusals.
CREATE SCHEMA other;
GRANT USAGE ON SCHEMA other TO grammar_reader;
CREATE TABLE other.elsewhere (id integer PRIMARY KEY, label text);
GRANT SELECT ON other.elsewhere TO grammar_reader;
INSERT INTO other.elsewhere VALUES (7, 'seven');
CREATE SEQUENCE counter;
GRANT USAGE, SELECT ON SEQUENCE counter TO grammar_reader;

-- Text in a linguistic collation, to tell the library's byte order from
-- the server's.
CREATE TABLE words (w text COLLATE "und-x-icu" NOT NULL);
INSERT INTO words VALUES ('b'), ('B'), ('a'), ('é'), ('Z'), ('a');
