-- Values that a double or a 64-bit integer would change, for
-- tests/test-value-fidelity.c: written once in the SQL that SQLite,
-- MariaDB/MySQL and PostgreSQL all read. Each database gives them in its
-- own way (SQLite has no decimal type: its DECIMAL column holds the
-- double 154.8 for 154.80), and each must come out of every stage, file
-- and report exactly as that database gave it.

CREATE TABLE item (
  item_id INTEGER PRIMARY KEY,
  name    VARCHAR(40) NOT NULL UNIQUE,
  price   DOUBLE PRECISION,
  amount  DECIMAL(12,2),
  exact   DECIMAL(30,1),
  whole   DECIMAL(25,0),
  big     BIGINT,
  day     DATE,
  note    VARCHAR(60)
);

INSERT INTO item (item_id, name, price, amount, exact, whole, big, day, note) VALUES
  (1, 'Alpha', 154.8,  154.80, 12345678901234567890.5, 99999999999999999999, 9007199254740993,     '2021-03-04', 'Flann O''Brien'),
  (2, 'Beta',  2265.8, 12.00,  -0.5,                   -42,                  -9223372036854775807, '1999-12-31', '2021-03-04T05:06:07Z'),
  (3, 'Gamma', 62.4,   0.10,   1.0,                    0,                    9223372036854775807,  '2000-02-29', '0.10');
