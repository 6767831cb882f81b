#!/usr/bin/env python3
"""Run a command next to a throwaway database server.

    with-server.py mysql|postgres [--fixture FILE.sql]... [--database NAME=FILE.sql]... -- COMMAND [ARG]...
    with-server.py admin-sql [DATABASE]   (SQL on stdin, inside COMMAND: runs as the server's admin)

Starts a private MariaDB (or MySQL) or PostgreSQL server in a temporary
folder, listening on a socket in that folder and on a free loopback port,
creates the database `grammar_test`, a read-only user `grammar_reader`
and an admin user, loads each fixture as the admin (into grammar_test,
or with --database into a database NAME of its own that the reader may
read too), runs COMMAND with the
environment below, and always stops the server and removes the folder,
also when COMMAND fails or the script is interrupted.

Exits 77 (skipped) only when the server's programs are not installed.

The environment COMMAND sees:
  GRAMMAR_TEST_SERVER          mysql or postgres
  GRAMMAR_TEST_DB_HOST         127.0.0.1
  GRAMMAR_TEST_DB_PORT         the TCP port
  GRAMMAR_TEST_DB_SOCKET       mysql: the socket file; postgres: the socket folder
  GRAMMAR_TEST_DB_NAME         grammar_test
  GRAMMAR_TEST_DB_USER         grammar_reader (SELECT on grammar_test only)
  GRAMMAR_TEST_DB_PASSWORD     its password: name this variable in password-env=
  GRAMMAR_TEST_DB_ADMIN_USER, GRAMMAR_TEST_DB_ADMIN_PASSWORD
  GRAMMAR_TEST_DB_DIR          the temporary folder (for a test's own files)
  GRAMMAR_TEST_DB_STARTUP      seconds the server took to start, fixtures included

WITH_SERVER_INNODB_BUFFER_POOL sets MariaDB's buffer pool (default 32M,
enough for the tests; benchmarks give it room for their tables).

Fixtures are SQL scripts in the SQLite dialect the project's own fixtures
use; `PRAGMA` lines are left out, and mysql loads them with ANSI_QUOTES, PIPES_AS_CONCAT and
NO_BACKSLASH_ESCAPES, so that the same file loads into all three.

SPDX-License-Identifier: LGPL-2.1-or-later
"""

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

DATABASE = "grammar_test"
READER = "grammar_reader"
READER_PASSWORD = "reader-Secret-42"
ADMIN = "grammar_admin"
ADMIN_PASSWORD = "admin-Secret-42"
# The session settings mysql fixtures load with (and the plugin reads with).
MYSQL_MODE = "ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES,STRICT_ALL_TABLES"


class Skip(Exception):
    pass


def find_program(names, extra_dirs=()):
    for name in names:
        for folder in extra_dirs:
            path = os.path.join(folder, name)
            if os.access(path, os.X_OK):
                return path
        path = shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/sbin:/usr/local/sbin")
        if path:
            return path
    raise Skip("none of %s is installed" % ", ".join(names))


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fixture_text(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().upper().startswith("PRAGMA"):
                continue
            lines.append(line)
    return "".join(lines)


def run(argv, **kwargs):
    result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kwargs)
    if result.returncode != 0:
        out = result.stdout.decode("utf-8", "replace") if isinstance(result.stdout, bytes) else result.stdout
        raise RuntimeError("%s failed (exit %d):\n%s" % (" ".join(argv), result.returncode, out))
    return result


def admin_command(kind, client, socket_path, port, database):
    """The command line and environment of the server's own client, logged
    in as the admin: one place for the loader, admin-sql and benchmarks."""
    if kind == "postgres":
        argv = [client, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socket_path, "-p", str(port),
                "-U", ADMIN, "-d", database or "postgres"]
        return argv, dict(os.environ, PGPASSWORD=ADMIN_PASSWORD)
    argv = [client, "--no-defaults", "--socket=" + socket_path, "-u", ADMIN, "--batch",
            "--default-character-set=utf8mb4", "--local-infile=1",
            "--init-command=SET SESSION sql_mode='%s'" % MYSQL_MODE]
    return argv + ([database] if database else []), dict(os.environ, MYSQL_PWD=ADMIN_PASSWORD)


class Unprivileged:
    """PostgreSQL refuses to run as root: run its programs as `nobody`."""

    def __init__(self):
        self.root = os.geteuid() == 0
        if self.root:
            entry = pwd.getpwnam("nobody")
            self.uid, self.gid = entry.pw_uid, entry.pw_gid

    def prefix(self):
        if not self.root:
            return []
        return ["setpriv", "--reuid=%d" % self.uid, "--regid=%d" % self.gid, "--clear-groups", "--"]

    def own(self, path):
        if self.root:
            os.chown(path, self.uid, self.gid)


class Postgres:
    name = "postgres"

    def __init__(self, folder):
        bindirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
        self.initdb = find_program(["initdb"], bindirs)
        self.pg_ctl = find_program(["pg_ctl"], bindirs)
        self.psql = find_program(["psql"], bindirs)
        find_program(["postgres"], bindirs)
        self.folder = folder
        self.data = os.path.join(folder, "data")
        self.socket_dir = folder
        self.port = free_port()
        self.user = Unprivileged()
        self.started = False

    def start(self):
        self.user.own(self.folder)
        pwfile = os.path.join(self.folder, "pwfile")
        with open(pwfile, "w") as f:
            f.write(ADMIN_PASSWORD + "\n")
        self.user.own(pwfile)
        run(self.user.prefix() + [self.initdb, "-D", self.data, "-U", ADMIN, "--pwfile", pwfile,
                                  "--auth", "scram-sha-256", "-E", "UTF8", "--locale", "C.UTF-8",
                                  "--no-sync"], cwd=self.folder)
        os.unlink(pwfile)
        options = "-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s " \
                  "-c fsync=off -c full_page_writes=off -c synchronous_commit=off" % (self.port, self.socket_dir)
        run(self.user.prefix() + [self.pg_ctl, "-D", self.data, "-l", os.path.join(self.folder, "server.log"),
                                  "-o", options, "-w", "-t", "60", "start"], cwd=self.folder)
        self.started = True
        self.admin_sql("CREATE ROLE %s LOGIN PASSWORD '%s'" % (READER, READER_PASSWORD), database="postgres")
        self.create_database(DATABASE)

    def create_database(self, name):
        self.admin_sql("CREATE DATABASE %s ENCODING 'UTF8' TEMPLATE template0" % name, database="postgres")
        self.admin_sql("GRANT CONNECT ON DATABASE %s TO %s;"
                       "GRANT USAGE ON SCHEMA public TO %s;"
                       "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO %s;"
                       % (name, READER, READER, READER), database=name)

    def admin_sql(self, sql, database=DATABASE):
        argv, env = admin_command("postgres", self.psql, self.socket_dir, self.port, database)
        return run(argv, input=sql.encode("utf-8"), env=env)

    def load(self, path, database=DATABASE):
        self.admin_sql("SET client_min_messages = warning;\n" + fixture_text(path), database=database)

    def environment(self):
        return {"GRAMMAR_TEST_DB_SOCKET": self.socket_dir}

    def stop(self):
        if self.started:
            subprocess.run(self.user.prefix() + [self.pg_ctl, "-D", self.data, "-m", "immediate", "-w", "stop"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.started = False


class Mysql:
    name = "mysql"

    def __init__(self, folder):
        self.mariadbd = find_program(["mariadbd", "mysqld"])
        self.install_db = find_program(["mariadb-install-db", "mysql_install_db"])
        self.client = find_program(["mariadb", "mysql"])
        self.folder = folder
        self.data = os.path.join(folder, "data")
        self.socket = os.path.join(folder, "mysqld.sock")
        self.port = free_port()
        self.process = None

    def base_options(self):
        return ["--no-defaults", "--datadir=" + self.data]

    def start(self):
        user = ["--user=" + pwd.getpwuid(os.geteuid()).pw_name]
        run([self.install_db] + self.base_options() + user +
            ["--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve"],
            cwd=self.folder)
        log = open(os.path.join(self.folder, "server.log"), "wb")
        self.process = subprocess.Popen(
            [self.mariadbd] + self.base_options() + user +
            ["--socket=" + self.socket, "--port=%d" % self.port, "--bind-address=127.0.0.1",
             "--pid-file=" + os.path.join(self.folder, "mysqld.pid"), "--skip-name-resolve",
             "--log-error=" + os.path.join(self.folder, "error.log"),
             "--innodb-buffer-pool-size=" + os.environ.get("WITH_SERVER_INNODB_BUFFER_POOL", "32M"), "--innodb-log-file-size=16M", "--innodb-flush-log-at-trx-commit=0",
             "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci",
             "--max-connections=50", "--skip-log-bin"],
            stdout=log, stderr=subprocess.STDOUT, cwd=self.folder)
        deadline = time.monotonic() + 60
        while not os.path.exists(self.socket):
            if self.process.poll() is not None:
                raise RuntimeError("mariadbd exited with %d:\n%s" % (self.process.returncode, self.error_log()))
            if time.monotonic() > deadline:
                raise RuntimeError("mariadbd did not start in 60 s:\n%s" % self.error_log())
            time.sleep(0.05)
        self.root_sql("CREATE USER '%s'@'localhost' IDENTIFIED BY '%s';"
                      "CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s';"
                      "GRANT ALL ON *.* TO '%s'@'localhost' WITH GRANT OPTION;"
                      "GRANT ALL ON *.* TO '%s'@'127.0.0.1' WITH GRANT OPTION;"
                      % (ADMIN, ADMIN_PASSWORD, ADMIN, ADMIN_PASSWORD, ADMIN, ADMIN))
        self.admin_sql("CREATE USER '%s'@'localhost' IDENTIFIED BY '%s';"
                       "CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s';"
                       % (READER, READER_PASSWORD, READER, READER_PASSWORD), database=None)
        self.create_database(DATABASE)

    def create_database(self, name):
        self.admin_sql("CREATE DATABASE %s CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;"
                       "GRANT SELECT ON %s.* TO '%s'@'localhost';"
                       "GRANT SELECT ON %s.* TO '%s'@'127.0.0.1';"
                       % (name, name, READER, name, READER), database=None)

    def error_log(self):
        try:
            with open(os.path.join(self.folder, "error.log"), errors="replace") as f:
                return f.read()[-4000:]
        except OSError:
            return ""

    def root_sql(self, sql):
        return run([self.client, "--no-defaults", "--socket=" + self.socket, "-u", "root", "--batch"],
                   input=sql.encode("utf-8"))

    def admin_sql(self, sql, database=DATABASE):
        argv, env = admin_command("mysql", self.client, self.socket, self.port, database)
        return run(argv, input=sql.encode("utf-8"), env=env)

    def load(self, path, database=DATABASE):
        self.admin_sql(fixture_text(path), database=database)

    def environment(self):
        return {"GRAMMAR_TEST_DB_SOCKET": self.socket}

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None


SERVERS = {"mysql": Mysql, "postgres": Postgres}


def admin_sql_main(database=DATABASE):
    """Runs stdin as the admin of the server COMMAND runs next to."""
    kind = os.environ.get("GRAMMAR_TEST_SERVER")
    if kind not in SERVERS:
        print("admin-sql: run it inside with-server.py's COMMAND", file=sys.stderr)
        return 2
    sql = sys.stdin.read()
    argv, env = admin_command(kind, os.environ["GRAMMAR_TEST_DB_ADMIN_CLIENT"], os.environ["GRAMMAR_TEST_DB_SOCKET"],
                              os.environ["GRAMMAR_TEST_DB_PORT"], database)
    result = subprocess.run(argv, input=sql.encode("utf-8"), env=env)
    return result.returncode


def main(argv):
    if len(argv) >= 2 and argv[1] == "admin-sql":
        return admin_sql_main(*argv[2:3])
    if len(argv) < 4 or argv[1] not in SERVERS or "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    kind = argv[1]
    split = argv.index("--")
    options, command = argv[2:split], argv[split + 1:]
    fixtures = []
    while options:
        if options[0] == "--fixture" and len(options) >= 2:
            fixtures.append((None, os.path.abspath(options[1])))
            options = options[2:]
        elif options[0] == "--database" and len(options) >= 2 and "=" in options[1]:
            name, path = options[1].split("=", 1)
            if not name.isidentifier():
                print("with-server.py: “%s” is not a plain database name" % name, file=sys.stderr)
                return 2
            fixtures.append((name, os.path.abspath(path)))
            options = options[2:]
        else:
            print("with-server.py: unknown option %s" % options[0], file=sys.stderr)
            return 2
    if not command:
        print("with-server.py: no command after --", file=sys.stderr)
        return 2

    # A meson timeout sends SIGTERM: stop the server on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(130))

    folder = tempfile.mkdtemp(prefix="grammar-%s-" % kind)
    os.chmod(folder, 0o755)
    server = None
    try:
        try:
            server = SERVERS[kind](folder)
        except Skip as skip:
            print("1..0 # SKIP %s server: %s" % (kind, skip))
            print("with-server.py: skipped: %s" % skip, file=sys.stderr)
            return 77
        started = time.monotonic()
        server.start()
        for name, fixture in fixtures:
            if name is None:
                server.load(fixture)
            else:
                server.create_database(name)
                server.load(fixture, database=name)
        startup = time.monotonic() - started
        print("with-server.py: %s started in %.2f s (fixtures loaded)" % (kind, startup), file=sys.stderr)
        env = dict(os.environ)
        env.update({
            "GRAMMAR_TEST_SERVER": kind,
            "GRAMMAR_TEST_DB_HOST": "127.0.0.1",
            "GRAMMAR_TEST_DB_PORT": str(server.port),
            "GRAMMAR_TEST_DB_NAME": DATABASE,
            "GRAMMAR_TEST_DB_USER": READER,
            "GRAMMAR_TEST_DB_PASSWORD": READER_PASSWORD,
            "GRAMMAR_TEST_DB_ADMIN_USER": ADMIN,
            "GRAMMAR_TEST_DB_ADMIN_PASSWORD": ADMIN_PASSWORD,
            "GRAMMAR_TEST_DB_ADMIN_CLIENT": server.psql if kind == "postgres" else server.client,
            "GRAMMAR_TEST_DB_DIR": folder,
            "GRAMMAR_TEST_DB_STARTUP": "%.2f" % startup,
            "GRAMMAR_TEST_WITH_SERVER": os.path.abspath(__file__),
        })
        env.update(server.environment())
        return subprocess.run(command, env=env).returncode
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
