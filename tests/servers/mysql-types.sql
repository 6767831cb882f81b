-- tests/servers/mysql-types.sql: the fixture of tests/test-mysql.c, in
-- MariaDB/MySQL's own dialect (loaded by with-server.py with ANSI_QUOTES,
-- PIPES_AS_CONCAT and NO_BACKSLASH_ESCAPES).
--
-- Tables are created in an order that is not their name order, so that
-- the introspection test can tell creation order from name order.
--
-- SPDX-License-Identifier: LGPL-2.1-or-later
SET NAMES utf8mb4;
SET time_zone = '+00:00';

CREATE TABLE zeta_authors (
  id INT PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  email VARCHAR(100),
  CONSTRAINT authors_email UNIQUE (email)
);

CREATE TABLE alpha_books (
  author_id INT NOT NULL,
  book_no INT NOT NULL,
  title TEXT NOT NULL,
  isbn VARCHAR(20),
  blurb TEXT,
  pages INT DEFAULT 100,
  PRIMARY KEY (author_id, book_no),
  UNIQUE KEY books_title_prefix (title(10)),
  UNIQUE (blurb),
  FOREIGN KEY (author_id) REFERENCES zeta_authors (id)
);
CREATE UNIQUE INDEX books_isbn ON alpha_books (isbn);
-- A unique key that repeats the primary key adds nothing.
CREATE UNIQUE INDEX books_again ON alpha_books (book_no, author_id);

-- Two foreign keys: the first declared points to zeta_authors, the
-- second (two columns) to alpha_books, so that neither name order of
-- the parents nor of the columns gives declaration order.
CREATE TABLE middle_loans (
  id INT PRIMARY KEY AUTO_INCREMENT,
  lender_id INT NOT NULL,
  author_id INT,
  book_no INT,
  reader VARCHAR(50) DEFAULT 'anon',
  note VARCHAR(50),
  FOREIGN KEY (lender_id) REFERENCES zeta_authors (id),
  FOREIGN KEY (author_id, book_no) REFERENCES alpha_books (author_id, book_no)
);

CREATE TABLE value_types (
  id INT PRIMARY KEY,
  big_unsigned BIGINT UNSIGNED,
  big_signed BIGINT,
  small_int SMALLINT,
  dec_small DECIMAL(10,2),
  dec_whole DECIMAL(10,2),
  dec_big DECIMAL(30,10),
  single_float FLOAT,
  double_float DOUBLE,
  flag TINYINT(1),
  day DATE,
  moment DATETIME(6),
  whole_moment DATETIME,
  stamp TIMESTAMP NULL,
  duration TIME,
  yr YEAR,
  bits BIT(10),
  data BLOB,
  short_bytes VARBINARY(8),
  txt VARCHAR(50),
  long_txt LONGTEXT,
  nul_text TEXT,
  choice ENUM('x', 'y'),
  doc JSON
);
INSERT INTO value_types VALUES (
  1, 18446744073709551615, -9223372036854775808, -12,
  1234.50, 5.00, 12345678901234567890.1234567890,
  0.1, 0.1, 1,
  '2024-02-29', '2024-02-29 13:45:10.123456', '2024-02-29 13:45:10', '2024-02-29 13:45:10',
  '-838:59:59', 2024, b'1000000001',
  x'00ff10', 'ab',
  'Ferrández ✓', REPEAT('0123456789', 10000), CONCAT('a', CHAR(0 USING utf8mb4), 'b'),
  'y', '{"a": [1, 2]}'
);
INSERT INTO value_types (id) VALUES (2);

-- latin1 storage: values still come out as UTF-8.
CREATE TABLE latin1_names (name VARCHAR(50)) CHARACTER SET latin1;
INSERT INTO latin1_names VALUES ('Ferrández');

-- Case and trailing spaces under the default collation.
CREATE TABLE words (w VARCHAR(20));
INSERT INTO words VALUES ('Apple'), ('apple'), ('pear '), ('pear');

CREATE TABLE digits (d INT PRIMARY KEY);
INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
-- 130 rows: three of them cross-joined give 2 197 000 rows.
CREATE TABLE numbers (i INT PRIMARY KEY);
INSERT INTO numbers SELECT a.d * 100 + b.d * 10 + c.d FROM digits a, digits b, digits c
  WHERE a.d * 100 + b.d * 10 + c.d < 130;

-- Eleven automatic foreign key names: many_refs_ibfk_10 and _11 come
-- after _9, as declared, not after _1 as their names sort.
CREATE TABLE many_refs (
  c1 INT,
  c2 INT,
  c3 INT,
  c4 INT,
  c5 INT,
  c6 INT,
  c7 INT,
  c8 INT,
  c9 INT,
  c10 INT,
  c11 INT,
  FOREIGN KEY (c1) REFERENCES digits (d),
  FOREIGN KEY (c2) REFERENCES digits (d),
  FOREIGN KEY (c3) REFERENCES digits (d),
  FOREIGN KEY (c4) REFERENCES digits (d),
  FOREIGN KEY (c5) REFERENCES digits (d),
  FOREIGN KEY (c6) REFERENCES digits (d),
  FOREIGN KEY (c7) REFERENCES digits (d),
  FOREIGN KEY (c8) REFERENCES digits (d),
  FOREIGN KEY (c9) REFERENCES digits (d),
  FOREIGN KEY (c10) REFERENCES digits (d),
  FOREIGN KEY (c11) REFERENCES digits (d)
);

INSERT INTO zeta_authors VALUES (1, 'Ann', 'ann@example.org'), (2, 'Bob', NULL), (3, 'O''Brien', 'ob@example.org');
INSERT INTO alpha_books VALUES (1, 1, 'First', '978-1', NULL, 120), (1, 2, 'Second', NULL, NULL, DEFAULT),
  (3, 1, 'Third', '978-3', 'A blurb', 300);
INSERT INTO middle_loans (lender_id, author_id, book_no, reader) VALUES (2, 1, 1, 'Cy'), (2, 3, 1, NULL);

CREATE VIEW book_titles AS
  SELECT a.name AS author, b.title AS title FROM alpha_books b JOIN zeta_authors a ON a.id = b.author_id;
