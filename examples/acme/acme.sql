-- Kestrel Ridge Consulting: a small, entirely fictional engineering
-- consultancy, used as the demo knowledge base of GRAMMAR-C.
--
-- Every person, company, address and figure below is invented.
-- Load it with:  sqlite3 acme.db < acme.sql
-- or point the sqlite plugin at it with  script=acme/acme.sql

PRAGMA foreign_keys = ON;

BEGIN;

CREATE TABLE employee (
  employee_id   INTEGER PRIMARY KEY,
  name          TEXT NOT NULL UNIQUE,
  title         TEXT,
  hire_date     TEXT,                 -- ISO 8601 date, YYYY-MM-DD
  email         TEXT UNIQUE,
  supervisor_id INTEGER REFERENCES employee (employee_id)
);

CREATE TABLE client (
  client_id     INTEGER PRIMARY KEY,
  name          TEXT NOT NULL UNIQUE,
  industry      TEXT,
  country       TEXT,
  contact_email TEXT
);

CREATE TABLE project (
  project_id  INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  description TEXT,
  start_date  TEXT,                   -- ISO 8601 date
  end_date    TEXT,                   -- ISO 8601 date; NULL while ongoing
  budget      REAL,                   -- in euros
  client_id   INTEGER REFERENCES client (client_id),
  director_id INTEGER REFERENCES employee (employee_id),
  manager_id  INTEGER REFERENCES employee (employee_id)
);

CREATE TABLE project_assignment (
  project_id     INTEGER NOT NULL,
  employee_id    INTEGER NOT NULL,
  role           TEXT,
  hours_per_week INTEGER,
  PRIMARY KEY (project_id, employee_id),
  FOREIGN KEY (project_id) REFERENCES project (project_id),
  FOREIGN KEY (employee_id) REFERENCES employee (employee_id)
);

-- Supervisors come before the people who report to them.
INSERT INTO employee (employee_id, name, title, hire_date, email, supervisor_id) VALUES
  (1,  'Margit Halvorsen',   'Chief Executive Officer',   '2011-03-01', 'margit.halvorsen@kestrelridge.example',   NULL),
  (2,  'Tobias Wren',        'Director of Engineering',   '2012-06-18', 'tobias.wren@kestrelridge.example',        1),
  (3,  'Adaeze Okonkwo',     'Director of Data Services', '2013-01-07', 'adaeze.okonkwo@kestrelridge.example',     1),
  (4,  'Ciarán O''Donnell',  'Senior Project Manager',    '2014-09-22', 'ciaran.odonnell@kestrelridge.example',    2),
  (5,  'Rosalind Pike',      'Project Manager',           '2016-04-11', 'rosalind.pike@kestrelridge.example',      3),
  (6,  'Jun Takahara',       'Lead Software Engineer',    '2015-11-02', 'jun.takahara@kestrelridge.example',       4),
  (7,  'Lucía Ferrández',    'Data Scientist',            '2018-02-26', 'lucia.ferrandez@kestrelridge.example',    5),
  (8,  'Elliot Marsh',       'Software Engineer',         '2019-07-15', 'elliot.marsh@kestrelridge.example',       6),
  (9,  'Priya Raghunathan',  'Data Engineer',             '2020-01-13', 'priya.raghunathan@kestrelridge.example',  5),
  (10, 'Henrik Søgaard',     'Structural Analyst',        '2017-10-09', 'henrik.sogaard@kestrelridge.example',     4),
  (11, 'Bethany Quill',      'UX Designer',               '2021-05-03', 'bethany.quill@kestrelridge.example',      6),
  (12, 'Mateus Albuquerque', 'Junior Software Engineer',  '2023-09-04', 'mateus.albuquerque@kestrelridge.example', 8);

INSERT INTO client (client_id, name, industry, country, contact_email) VALUES
  (1, 'Northgate Rail',           'Transportation',   'United Kingdom', 'procurement@northgate-rail.example'),
  (2, 'Verdant Fields Co-op',     'Agriculture',      'Ireland',        'office@verdantfields.example'),
  (3, 'Bluefin Maritime',         'Shipping',         'Norway',         'it-projects@bluefin.example'),
  (4, 'Solenne Health',           'Healthcare',       'France',         'partenaires@solenne-health.example'),
  (5, 'Harbour & Hill Insurance', 'Insurance',        'Canada',         'vendors@harbourhill.example'),
  (6, 'Kumo Robotics',            'Manufacturing',    'Japan',          'contact@kumo-robotics.example');

INSERT INTO project (project_id, name, description, start_date, end_date, budget, client_id, director_id, manager_id) VALUES
  (1, 'Signal Sentinel',  'Predictive maintenance for railway signalling equipment.',
      '2021-02-01', '2022-06-30', 480000.0, 1, 2, 4),
  (2, 'Crop Ledger',      'Harvest and soil records platform for co-operative farms.',
      '2022-03-14', '2023-01-31', 215000.0, 2, 3, 5),
  (3, 'Tidewatch',        'Vessel route optimisation using weather and port data.',
      '2022-09-05', '2024-03-29', 730000.0, 3, 2, 4),
  (4, 'Clinic Compass',   'Patient appointment scheduling across regional clinics.',
      '2023-01-09', '2023-12-15', 390000.0, 4, 3, 5),
  (5, 'Claimsight',       'Fraud signals dashboard for property insurance claims.',
      '2023-05-02', '2024-02-28', 305000.0, 5, 3, 5),
  (6, 'Gripper Twin',     'Digital twin of a robotic gripper assembly line.',
      '2023-11-20', NULL,         560000.0, 6, 2, 4),
  (7, 'Bridge Loadcheck', 'Load analysis for ageing pedestrian rail bridges.',
      '2024-04-08', '2024-11-22', 142000.0, 1, 2, 4),
  (8, 'Harvest Forecast', 'Seasonal yield forecasting from satellite imagery.',
      '2024-06-17', '2025-05-30', 268000.0, 2, 3, 5);

INSERT INTO project_assignment (project_id, employee_id, role, hours_per_week) VALUES
  (1, 6,  'Technical lead',      30),
  (1, 8,  'Backend developer',   40),
  (1, 10, 'Reliability analyst', 20),
  (2, 7,  'Data scientist',      25),
  (2, 9,  'Pipeline engineer',   35),
  (2, 11, 'Interface designer',  15),
  (3, 6,  'Technical lead',      20),
  (3, 7,  'Forecast modeller',   20),
  (3, 12, 'Backend developer',   40),
  (4, 9,  'Data engineer',       30),
  (4, 11, 'Interface designer',  25),
  (4, 8,  'Backend developer',   20),
  (5, 7,  'Data scientist',      30),
  (5, 9,  'Pipeline engineer',   15),
  (6, 6,  'Technical lead',      25),
  (6, 10, 'Structural analyst',  30),
  (6, 12, 'Simulation developer', 40),
  (7, 10, 'Structural analyst',  35),
  (7, 8,  'Tooling developer',   10),
  (8, 7,  'Forecast modeller',   30),
  (8, 11, 'Interface designer',  10);

COMMIT;
